import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { MedbenchError } from '../../core/errors.js';
import type { Icd10Entry, IcdTables } from './icd-sources.js';

export const ICD9_TO_ICD10_FILE = 'icd9-to-icd10cm.tsv.gz';
export const ICD10_FILE = 'icd10cm.tsv.gz';

/** assets/icd/ of the installed medbench (src/suites/clue → three levels up, as dist/suites/clue). */
export function shippedIcdFolder(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'assets', 'icd');
}

/**
 * Writes the tables as medbench ships them: gzip TSV, `icd9<TAB>icd10` and
 * `code<TAB>1|0<TAB>title`, in the order of their sources.
 */
export function writeIcdTables(folder: string, tables: IcdTables): void {
  mkdirSync(folder, { recursive: true });
  const gem = [...tables.icd9ToIcd10].map(([source, target]) => `${source}\t${target}\n`).join('');
  const codes = [...tables.icd10]
    .map(([code, entry]) => {
      if (/[\t\n]/.test(entry.description)) throw new Error(`${code}: a title with a tab or newline`);
      return `${code}\t${entry.billable ? 1 : 0}\t${entry.description}\n`;
    })
    .join('');
  // mtime 0 in the gzip header (zlib's default): the same tables give the same bytes.
  writeFileSync(join(folder, ICD9_TO_ICD10_FILE), gzipSync(gem, { level: 9 }));
  writeFileSync(join(folder, ICD10_FILE), gzipSync(codes, { level: 9 }));
}

function readLines(path: string): string[] {
  if (!existsSync(path))
    throw new MedbenchError({
      code: 'FILE_ERROR',
      message: `medbench's ICD table ${path} is missing`,
      hint: 'Reinstall medbench; the tables ship in assets/icd/ (tools/build-icd-tables.js rebuilds them).',
    });
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  return text.split('\n').filter((line) => line !== '');
}

/** Reads the tables from `folder` (default: the ones medbench ships). */
export function readIcdTables(folder = shippedIcdFolder()): IcdTables {
  const icd9ToIcd10 = new Map<string, string>();
  for (const line of readLines(join(folder, ICD9_TO_ICD10_FILE))) {
    const [source, target] = line.split('\t');
    icd9ToIcd10.set(source!, target!);
  }
  const icd10 = new Map<string, Icd10Entry>();
  for (const line of readLines(join(folder, ICD10_FILE))) {
    const [code, billable, description] = line.split('\t');
    icd10.set(code!, { billable: billable === '1', description: description! });
  }
  return { icd9ToIcd10, icd10 };
}

let shipped: IcdTables | undefined;

/** The shipped tables, read once per process. */
export function shippedIcdTables(): IcdTables {
  shipped ??= readIcdTables();
  return shipped;
}

/** `icd10.find(code)`: the code with its dots removed, looked up in the table. */
export function findIcd10(tables: IcdTables, code: string): Icd10Entry | undefined {
  if (code === '') return undefined;
  return tables.icd10.get(code.replaceAll('.', ''));
}
