import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as FastXmlParser from 'fast-xml-parser';
import type * as Fflate from 'fflate';
import { MedbenchError } from '../../core/errors.js';

/**
 * The zip and XML readers, loaded on the first .xlsx read (only MeQSum is one): every other
 * command starts without them (about 30 ms of loading on this machine).
 */
const load = createRequire(import.meta.url);
let readers: { parser: FastXmlParser.XMLParser; unzipSync: typeof Fflate.unzipSync } | undefined;
function xlsxReaders() {
  if (readers) return readers;
  const { XMLParser } = load('fast-xml-parser') as typeof FastXmlParser;
  const { unzipSync } = load('fflate') as typeof Fflate;
  readers = { parser: new XMLParser(PARSER_OPTIONS), unzipSync };
  return readers;
}

const PARSER_OPTIONS: FastXmlParser.X2jOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '',
  textNodeName: '#text',
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => ['si', 'r', 'row', 'c', 'sheet', 'Relationship'].includes(name),
};

type XmlNode = Record<string, unknown>;

/** The text of a shared-string item or inline string: a plain <t>, or rich-text runs <r><t>. */
function stringItemText(item: XmlNode | undefined): string {
  if (!item) return '';
  const text = (node: unknown): string =>
    typeof node === 'string'
      ? node
      : node && typeof node === 'object'
        ? String((node as XmlNode)['#text'] ?? '')
        : '';
  if (item.t !== undefined) return text(item.t);
  return ((item.r as XmlNode[] | undefined) ?? []).map((run) => text(run.t)).join('');
}

/** Column letters of a cell reference ("AB12" → 27, zero-based). */
function columnIndex(reference: string): number {
  let index = 0;
  for (const character of reference.replace(/\d+$/, '')) index = index * 26 + (character.charCodeAt(0) - 64);
  return index - 1;
}

/**
 * Reads the first worksheet of an .xlsx file as rows of cell texts (1-based row numbers
 * kept, so errors can name them). Only what tabular datasets use: shared strings, inline
 * strings, numbers and booleans.
 */
export function readFirstSheet(path: string): Array<{ row: number; cells: string[] }> {
  let files: Record<string, Uint8Array>;
  try {
    files = xlsxReaders().unzipSync(readFileSync(path));
  } catch (error) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path} is not a readable .xlsx file: ${(error as Error).message}`,
      hint: 'Use the official file as downloaded.',
      cause: error,
    });
  }
  const xml = (name: string): XmlNode | undefined => {
    const bytes = files[name];
    if (!bytes) return undefined;
    try {
      return xlsxReaders().parser.parse(new TextDecoder().decode(bytes)) as XmlNode;
    } catch (error) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${path}: ${name} inside it is not well-formed XML: ${(error as Error).message}`,
        hint: 'Use the official file as downloaded; a file re-saved by another program may need saving again as .xlsx.',
        cause: error,
      });
    }
  };
  const workbook = xml('xl/workbook.xml');
  const relations = xml('xl/_rels/workbook.xml.rels');
  const firstSheet = ((workbook?.workbook as XmlNode)?.sheets as XmlNode)?.sheet as XmlNode[] | undefined;
  const relationId = firstSheet?.[0]?.['r:id'];
  const target = ((relations?.Relationships as XmlNode)?.Relationship as XmlNode[] | undefined)?.find(
    (relation) => relation.Id === relationId,
  )?.Target as string | undefined;
  const sheetPath = target ? `xl/${target.replace(/^\/?xl\//, '')}` : 'xl/worksheets/sheet1.xml';
  const sheet = xml(sheetPath);
  if (!sheet) {
    throw new MedbenchError({ code: 'DATA_INVALID', message: `${path}: no worksheet found (${sheetPath}).` });
  }
  const shared = (((xml('xl/sharedStrings.xml')?.sst as XmlNode)?.si as XmlNode[] | undefined) ?? []).map(
    stringItemText,
  );
  const rows = (((sheet.worksheet as XmlNode)?.sheetData as XmlNode)?.row as XmlNode[] | undefined) ?? [];
  return rows.map((row, position) => {
    const cells: string[] = [];
    for (const cell of (row.c as XmlNode[] | undefined) ?? []) {
      const index = typeof cell.r === 'string' ? columnIndex(cell.r) : cells.length;
      // An .xlsx sheet has at most 16,384 columns (A to XFD).
      if (!Number.isInteger(index) || index < 0 || index >= 16_384)
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${path}: row ${String(row.r ?? position + 1)}: "${String(cell.r)}" is not a cell reference.`,
          hint: 'Use the official file as downloaded.',
        });
      const value =
        cell.v === undefined
          ? undefined
          : typeof cell.v === 'object'
            ? String((cell.v as XmlNode)['#text'] ?? '')
            : String(cell.v);
      let text = '';
      if (cell.t === 's') text = shared[Number(value)] ?? '';
      else if (cell.t === 'inlineStr') text = stringItemText(cell.is as XmlNode);
      else if (cell.t === 'b') text = value === '1' ? 'TRUE' : 'FALSE';
      else text = value ?? '';
      cells[index] = text;
    }
    return { row: Number(row.r ?? position + 1), cells: Array.from(cells, (cell) => cell ?? '') };
  });
}
