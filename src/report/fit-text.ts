/**
 * A text report laid out for a terminal `width` columns wide: a table wider than that is split by
 * columns into parts that each repeat its label columns (those that say what a row is). Prose is left as it is: a terminal wraps
 * it readably (and a search finds its sentences whole), while a wrapped table row is unreadable.
 * Tables are found as `renderTextTable` draws them: a header, a rule of dashes, rows.
 */

/** Where each column of a table lies, from its rule (`-----  ----`). */
interface Span {
  start: number;
  end: number;
}

const RULE = /^-+(?: {2}-+)*$/;

function spansOf(rule: string): Span[] {
  return [...rule.matchAll(/-+/g)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** A line of the table: past its first column and no longer than its rule, with spaces wherever the rule has them. */
function isRow(line: string, spans: readonly Span[]): boolean {
  const chars = [...line];
  if (chars.length <= spans[0]!.end || chars.length > spans.at(-1)!.end) return false;
  return spans.slice(1).every((span, index) => {
    const gap = chars.slice(spans[index]!.end, span.start);
    return gap.every((char) => char === ' ');
  });
}

/** A cell that names (a model, a task, a run) rather than measures: it has a letter and is no number. */
function names(cell: string): boolean {
  return /\p{L}/u.test(cell) && !/^[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?%?$/i.test(cell);
}

/**
 * The table's label columns, repeated in every part: the leading columns that name what a row is
 * (Model, Run, Task), up to the last one that names before two measuring columns in a row (a run id
 * of digits alone between two naming columns stays a label); the second too when the first is left
 * blank under a group (Model, Depth). At least one column is left to split.
 */
function labelColumns(rows: readonly string[][], spans: readonly Span[]): number {
  if (spans.length < 3) return 1;
  const column = (span: Span) => rows.map((chars) => chars.slice(span.start, span.end).join('').trim());
  let labels = 1;
  let measuring = 0;
  for (let index = 1; index < spans.length - 1 && measuring < 2; index++) {
    if (column(spans[index]!).some(names)) {
      labels = index + 1;
      measuring = 0;
    } else measuring++;
  }
  // Blank under a group: a row's first cell, not the line of intervals under a row (`[84.0–90.2]`).
  const intervalLine = (chars: readonly string[]) =>
    spans.every((span, index) => {
      const cell = chars.slice(span.start, span.end).join('').trim();
      return index === 0 ? cell === '' : cell === '' || /^\[.*\]$/.test(cell);
    });
  const grouped = rows.some(
    (chars) => !intervalLine(chars) && chars.slice(spans[0]!.start, spans[0]!.end).join('').trim() === '',
  );
  return Math.max(labels, grouped ? 2 : 1);
}

/** The table's columns in parts of at most `width` characters, each behind the label columns. */
function splitTable(lines: readonly string[], spans: readonly Span[], width: number): string[] {
  const cells = lines.map((line) => {
    const chars = [...line];
    while (chars.length < spans.at(-1)!.end) chars.push(' ');
    return chars;
  });
  const labels = labelColumns(cells.slice(2), spans);
  const labelWidth = spans[labels - 1]!.end;
  const parts: Span[][] = [];
  for (const span of spans.slice(labels)) {
    const part = parts.at(-1);
    const used = part ? part.reduce((sum, column) => sum + 2 + column.end - column.start, labelWidth) : 0;
    if (part && used + 2 + span.end - span.start <= width) part.push(span);
    else parts.push([span]);
  }
  return parts.flatMap((part, index) => [
    ...(index > 0 ? [''] : []),
    ...cells
      .map((chars) =>
        [chars.slice(0, labelWidth), ...part.map((span) => chars.slice(span.start, span.end))]
          .map((cell) => cell.join(''))
          .join('  ')
          .trimEnd(),
      )
      // A row's line of intervals with none in this part's columns: left out, not a blank line.
      .filter((line) => line !== ''),
  ]);
}

/** `text` laid out for `width` columns (see above); a table that fits, and every other line, unchanged. */
export function fitTextToWidth(text: string, width: number): string {
  const lines = text.split('\n');
  const fitted: string[] = [];
  for (let index = 0; index < lines.length; ) {
    const rule = lines[index + 1];
    if (rule !== undefined && RULE.test(rule) && lines[index]!.length > 0) {
      const spans = spansOf(rule);
      let end = index + 2;
      while (end < lines.length && isRow(lines[end]!, spans)) end++;
      const table = lines.slice(index, end);
      fitted.push(...([...rule].length > width ? splitTable(table, spans, width) : table));
      index = end;
    } else {
      fitted.push(lines[index]!);
      index++;
    }
  }
  return fitted.join('\n');
}

/** The report's sections (a title line, then its table and notes), as blank lines part them. */
export function textSections(text: string): string[] {
  return text.split(/\n{2,}/).filter((section) => section.trim() !== '');
}
