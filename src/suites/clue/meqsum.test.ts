import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMeQSum } from './meqsum.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-xlsx-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Writes a minimal xlsx: shared strings for the header, inline strings and rich text below. */
function writeXlsx(name: string, rows: string[][]): string {
  const shared = ['File', 'CHQ', 'Summary'];
  const cell = (text: string, column: number, row: number) => {
    const reference = `${String.fromCharCode(65 + column)}${row}`;
    const index = shared.indexOf(text);
    if (row === 1 && index >= 0) return `<c r="${reference}" t="s"><v>${index}</v></c>`;
    const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
    return `<c r="${reference}" t="inlineStr"><is><r><t>${escaped.slice(0, 3)}</t></r><r><t xml:space="preserve">${escaped.slice(3)}</t></r></is></c>`;
  };
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows
    .map(
      (cells, index) =>
        `<row r="${index + 1}">${cells.map((text, column) => cell(text, column, index + 1)).join('')}</row>`,
    )
    .join('')}</sheetData></worksheet>`;
  const sharedXml = `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${shared
    .map((text) => `<si><t>${text}</t></si>`)
    .join('')}</sst>`;
  const path = join(folder, name);
  writeFileSync(
    path,
    zipSync({
      'xl/workbook.xml': strToU8(
        '<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      'xl/worksheets/sheet1.xml': strToU8(sheet),
      'xl/sharedStrings.xml': strToU8(sharedXml),
    }),
  );
  return path;
}

describe('MeQSum xlsx', () => {
  it('reads rows, rich-text runs and entities', () => {
    const path = writeXlsx('ok.xlsx', [
      ['File', 'CHQ', 'Summary'],
      ['1.xml', 'Is 5 < 10 & safe?', 'What is safe?'],
    ]);
    expect(loadMeQSum(path)).toEqual([
      { id: '1.xml', question: 'Is 5 < 10 & safe?', summary: 'What is safe?' },
    ]);
  });

  it('names the headers it needs', () => {
    const path = writeXlsx('headers.xlsx', [['File', 'Question', 'Summary']]);
    expect(() => loadMeQSum(path)).toThrow(
      expect.objectContaining({
        code: 'DATA_INVALID',
        message: expect.stringContaining('File, CHQ, Summary'),
      }),
    );
  });

  it('names the row of an empty question', () => {
    const path = writeXlsx('empty.xlsx', [
      ['File', 'CHQ', 'Summary'],
      ['1.xml', 'A question?', 'A summary'],
      ['2.xml', '   ', 'A summary'],
    ]);
    expect(() => loadMeQSum(path)).toThrow(
      expect.objectContaining({ message: expect.stringContaining('row 3 has an empty CHQ') }),
    );
  });

  it('rejects a file that is not an xlsx', () => {
    const path = join(folder, 'not.xlsx');
    writeFileSync(path, 'hello');
    expect(() => loadMeQSum(path)).toThrow(expect.objectContaining({ code: 'DATA_INVALID' }));
  });
});
