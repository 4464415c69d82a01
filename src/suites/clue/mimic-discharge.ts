import { MedbenchError } from '../../core/errors.js';
import { PYTHON_CSV_FIELD_LIMIT, streamCsv } from '../../io/csv-stream.js';

/**
 * MIMIC-IV-Note's `discharge.csv` as the CLUE generation scripts read it: Python's csv module,
 * the header skipped, a row's fields by position (note_id 0, hadm_id 2, text 7). A row of fewer
 * than eight fields stops the scripts (an IndexError); here it is a clear error.
 */
export async function forEachDischargeNote(
  path: string,
  onNote: (fields: string[], index: number) => void,
  /** Which notes' texts are wanted (default all); the others come as ''. */
  wantText: (index: number) => boolean = () => true,
): Promise<void> {
  await streamCsv(path, {
    fieldLimit: PYTHON_CSV_FIELD_LIMIT,
    keep: (row, column) => column !== 7 || row === 0 || wantText(row - 1),
    onRow: (fields, row, line) => {
      if (row === 0) return;
      if (fields.length < 8)
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${path}: line ${line} has ${fields.length} columns; a discharge note has 8 (note_id, subject_id, hadm_id, note_type, note_seq, charttime, storetime, text)`,
          hint: 'Give MIMIC-IV-Note’s discharge.csv as released (the scripts read note_id, hadm_id and the text from columns 1, 3 and 8).',
        });
      onNote(fields, row - 1);
    },
  });
}

/** The texts of the notes at `indexes` (0-based, header excluded), read again from the file. */
export async function dischargeTexts(path: string, indexes: readonly number[]): Promise<Map<number, string>> {
  const texts = new Map<number, string>(indexes.map((index) => [index, '']));
  await forEachDischargeNote(
    path,
    (fields, index) => {
      if (texts.has(index)) texts.set(index, fields[7]!);
    },
    (index) => texts.has(index),
  );
  return texts;
}
