/**
 * RFC 4180 CSV: fields separated by commas, optionally quoted with "…" (a doubled quote is
 * a literal quote; quoted fields may span lines). Returns rows with their 1-based line.
 */
export function parseCsv(text: string): Array<{ line: number; fields: string[] }> {
  const rows: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let index = 0; index < input.length; index++) {
    const character = input[index]!;
    if (quoted) {
      if (character === '"' && input[index + 1] === '"') {
        field += '"';
        index++;
      } else if (character === '"') {
        quoted = false;
      } else {
        if (character === '\n') line++;
        field += character;
      }
      continue;
    }
    if (character === '"' && field === '') quoted = true;
    else if (character === ',') {
      fields.push(field);
      field = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && input[index + 1] === '\n') index++;
      fields.push(field);
      rows.push({ line: rowLine, fields });
      fields = [];
      field = '';
      line++;
      rowLine = line;
    } else field += character;
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    rows.push({ line: rowLine, fields });
  }
  return rows.filter((row) => row.fields.some((value) => value !== ''));
}
