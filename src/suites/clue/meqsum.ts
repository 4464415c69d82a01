import { MedbenchError } from '../../core/errors.js';
import { readFirstSheet } from './read-xlsx.js';

export interface MeQSumItem {
  /** The row's `File` value, e.g. "1-131188152.xml". */
  id: string;
  /** The consumer health question. */
  question: string;
  /** The reference one-question summary. */
  summary: string;
}

const HEADERS = ['File', 'CHQ', 'Summary'] as const;

/** Reads the official MeQSum xlsx (header File, CHQ, Summary), naming the row of any bad item. */
export function loadMeQSum(path: string): MeQSumItem[] {
  const [header, ...rows] = readFirstSheet(path);
  const names = (header?.cells ?? []).map((cell) => cell.trim());
  const columns = HEADERS.map((name) => names.indexOf(name));
  if (columns.some((column) => column < 0)) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: the first row must hold the headers ${HEADERS.join(', ')}; found ${names.join(', ') || 'nothing'}.`,
      hint: 'Use the official MeQSum_ACL2019_BenAbacha_Demner-Fushman.xlsx.',
    });
  }
  const [file, question, summary] = columns as [number, number, number];
  return rows
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
    .map(({ row, cells }) => {
      const item = {
        id: cells[file]?.trim() ?? '',
        question: cells[question] ?? '',
        summary: cells[summary] ?? '',
      };
      if (item.question.trim() === '' || item.summary.trim() === '') {
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${path}: row ${row} has an empty ${item.question.trim() === '' ? 'CHQ' : 'Summary'}.`,
        });
      }
      return item;
    });
}
