import { existsSync } from 'node:fs';
import { MedbenchError } from '../../core/errors.js';
import { readTextLines } from '../../io/text-file.js';
import type { ConceptName } from './concept-matcher.js';

/** MRCONSO.RRF has 18 fields, each followed by "|". */
const FIELDS = 18;
const CUI = 0;
const LAT = 1;
const SUPPRESS = 16;
const STR = 14;

/**
 * Reads concept names from a UMLS MRCONSO.RRF (supplied by the user under their UMLS
 * licence), keeping one language (default ENG) and dropping suppressed names.
 */
export async function loadMrconso(path: string, options: { language?: string } = {}): Promise<ConceptName[]> {
  if (!existsSync(path)) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `MRCONSO file not found: ${path}`,
      hint: 'Give the META/MRCONSO.RRF of your UMLS release (medbench cannot ship or download it).',
    });
  }
  const language = options.language ?? 'ENG';
  const names: ConceptName[] = [];
  for await (const { line: number, text: line } of readTextLines(path)) {
    if (line === '') continue;
    const fields = line.split('|');
    if (fields.length !== FIELDS + 1) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${path}:${number}: expected ${FIELDS} "|"-terminated fields, found ${fields.length - 1}.`,
        hint: 'MRCONSO.RRF lines read CUI|LAT|TS|LUI|STT|SUI|ISPREF|AUI|SAUI|SCUI|SDUI|SAB|TTY|CODE|STR|SRL|SUPPRESS|CVF|',
      });
    }
    if (fields[LAT] !== language || fields[SUPPRESS] === 'O' || fields[SUPPRESS] === 'E') continue;
    names.push({ id: fields[CUI]!, name: fields[STR]! });
  }
  return names;
}
