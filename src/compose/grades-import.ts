import { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import { NOTE_LIMIT, reviewerNameProblem } from '../core/grade-rules.js';
import type { ReviewRubric, Suite } from '../core/suite.js';
import { streamCsv } from '../io/csv-stream.js';
import { rubricScore } from '../metrics/judge/rubric.js';
import { gradeId, type HumanGrade } from '../store/human-grades.js';
import type { Store } from '../store/store.js';
import { CRITERION_PREFIX, GRADE_COLUMNS, SHEET_COLUMNS, type TokenOf } from './grades-csv.js';
import { type ReviewTarget, reviewRubrics, reviewTargets } from './review-items.js';
import { cellText } from './spreadsheet-cell.js';

export interface ImportGradesOptions {
  /** For rows whose reviewer cell is blank (or a file without the column). */
  reviewer?: string;
  /** Rubric files replacing shipped ones (as `judge --rubric`). */
  rubric?: readonly string[];
  tokenOf: TokenOf;
  /** The time a row without `graded_at` gets (default: now). */
  now?: string;
}

export interface ImportGradesOutcome {
  /** Grades in the file; added; already stored (or repeated in the file); rows left ungraded (every criterion blank). */
  grades: number;
  added: number;
  skipped: number;
  ungraded: number;
}

/** One problem of the file: where, and what to do. */
interface Problem {
  line: number;
  column?: string;
  message: string;
}

const TRUE = new Set(['1', 'true', 'yes']);
const FALSE = new Set(['0', 'false', 'no']);
const SHA256 = /^[0-9a-f]{64}$/;
const isoTime = z.iso.datetime({ offset: true });

/** A row's fields besides the item and the criteria, checked. */
const rowSchema = z.object({
  task: z.string().trim().min(1, 'is empty: give the task the row grades'),
  reviewer: z
    .string()
    .trim()
    .min(1, 'is empty: give who graded the row, or --reviewer NAME for rows without one')
    .superRefine((name, context) => {
      const problem = name === '' ? undefined : reviewerNameProblem(name);
      if (problem)
        context.addIssue({
          code: 'custom',
          message: `${JSON.stringify(name)} ${problem}: give the name the reviewer grades under (as view --reviewer takes it), e.g. "A. Smith"`,
        });
    }),
  graded_at: z
    .string()
    .trim()
    .refine((value) => value === '' || isoTime.safeParse(value).success, {
      message:
        'is not an ISO 8601 time with a zone (2026-11-27T10:15:00Z); leave it blank for the import time',
    }),
  rubric_version: z.string().trim().min(1, "is empty: give the rubric's version (export the sheet again)"),
  rubric_sha256: z
    .string()
    .trim()
    .regex(SHA256, "is not a SHA-256 (64 hex digits): copy the rubric's digest from an exported sheet"),
  note: z.string().superRefine((note, context) => {
    if (note.length > NOTE_LIMIT)
      context.addIssue({
        code: 'custom',
        message: `is ${note.length} characters long: a note is at most ${NOTE_LIMIT} characters (as in the viewer); shorten it`,
      });
  }),
});

const KNOWN = new Set<string>([...GRADE_COLUMNS, ...SHEET_COLUMNS]);

/** The file's records with their first line; blank lines dropped, a UTF-8 byte order mark removed. */
async function readRecords(file: string): Promise<Array<{ fields: string[]; line: number }>> {
  const records: Array<{ fields: string[]; line: number }> = [];
  await streamCsv(file, {
    onRow: (fields, row, line) => {
      if (row === 0 && fields[0]?.startsWith('\uFEFF')) fields[0] = fields[0].slice(1);
      if (fields.some((field) => field !== '')) records.push({ fields, line });
    },
  });
  return records;
}

/** The header's problems: unknown or repeated columns, and the ones every row needs. */
function headerProblems(header: readonly string[], options: ImportGradesOptions): Problem[] {
  // One column holding the others' names: saved with another separator (a European spreadsheet's `;`).
  const separator = header.length === 1 ? [';', '\t'].find((mark) => header[0]!.includes(mark)) : undefined;
  if (separator)
    return [
      {
        line: 1,
        message: `the header is one column holding ${separator === ';' ? 'semicolons' : 'tabs'}: the file is not comma-separated; save it as CSV UTF-8 (comma-delimited) — Excel: "CSV UTF-8 (Comma delimited)"; LibreOffice: "Text CSV", field delimiter "," — and import it again`,
      },
    ];
  const problems: Problem[] = [];
  const at = (column: string, message: string) => problems.push({ line: 1, column, message });
  header.forEach((column, index) => {
    if (header.indexOf(column) !== index) at(column, 'appears twice: keep one');
    else if (!KNOWN.has(column) && !column.startsWith(CRITERION_PREFIX))
      at(
        column,
        `is not a column of a grades file: the columns are ${[...KNOWN].join(', ')} and ${CRITERION_PREFIX}<id> per criterion`,
      );
  });
  for (const column of ['task', 'rubric_version', 'rubric_sha256'])
    if (!header.includes(column)) at(column, 'is missing: add it (export grades writes it)');
  if (!header.includes('item') && !(header.includes('run') && header.includes('sample')))
    at(
      'item',
      'is missing, and so is run or sample: a row names its item by its token, or by run and sample',
    );
  if (!header.includes('reviewer') && !options.reviewer)
    at('reviewer', 'is missing: add it, or give --reviewer NAME');
  return problems;
}

interface ImportContext {
  header: readonly string[];
  rubrics: ReadonlyMap<string, ReviewRubric>;
  byKey: ReadonlyMap<string, ReviewTarget>;
  byToken: ReadonlyMap<string, ReviewTarget>;
  options: ImportGradesOptions;
}

/** The stored answer a row grades: by run and sample, or by its blinded token; a problem otherwise. */
function targetOf(cells: Record<string, string>, context: ImportContext): ReviewTarget | Problem {
  const run = (cells.run ?? '').trim();
  const sample = (cells.sample ?? '').trim();
  const token = (cells.item ?? '').trim();
  if (run !== '' || sample !== '') {
    const target = context.byKey.get(`${run}\n${sample}`);
    if (!target)
      return {
        line: 0,
        column: [...context.byKey.values()].some((known) => known.run.id === run) ? 'sample' : 'run',
        message: `run "${run}", sample "${sample}" is not an answer people can grade in this store: give the full run id and sample id export grades wrote, into the store the runs are in`,
      };
    if (token !== '' && context.options.tokenOf({ runId: run, sampleId: sample }) !== token)
      return {
        line: 0,
        column: 'item',
        message: `"${token}" is not the token of run ${run}, sample ${sample}: fix or blank one of them`,
      };
    return target;
  }
  if (token === '')
    return { line: 0, column: 'item', message: 'is empty: give the item token, or run and sample' };
  return (
    context.byToken.get(token) ?? {
      line: 0,
      column: 'item',
      message: `"${token}" is not the token of any answer in this store: import the sheet into the store it was exported from`,
    }
  );
}

/** A row's verdicts on its rubric's criteria, or the problems of its criterion cells. */
function verdictsOf(cells: Record<string, string>, rubric: ReviewRubric, problems: Problem[]) {
  const verdicts: Record<string, boolean> = {};
  const ids = new Set(rubric.criteria.map((criterion) => criterion.id));
  const problem = (column: string, message: string) => problems.push({ line: 0, column, message });
  for (const { id } of rubric.criteria) {
    const column = `${CRITERION_PREFIX}${id}`;
    const value = cells[column]?.trim().toLowerCase();
    if (value === undefined)
      problem(
        column,
        `is missing: ${rubric.task}'s rubric (version ${rubric.version}) has the criterion "${id}"`,
      );
    else if (TRUE.has(value)) verdicts[id] = true;
    else if (FALSE.has(value)) verdicts[id] = false;
    else
      problem(
        column,
        `${value === '' ? 'is blank' : `"${cells[column]}"`}: mark the criterion 1 (met) or 0 (not met); true/false and yes/no are read too`,
      );
  }
  for (const column of Object.keys(cells))
    if (
      column.startsWith(CRITERION_PREFIX) &&
      !ids.has(column.slice(CRITERION_PREFIX.length)) &&
      cells[column]!.trim() !== ''
    )
      problem(column, `is not a criterion of ${rubric.task}'s rubric: leave it blank for this row`);
  return verdicts;
}

/** One row as a grade, or its problems (lines filled in by the caller). */
function gradeOfRow(cells: Record<string, string>, context: ImportContext, now: string) {
  const problems: Problem[] = [];
  const checked = rowSchema.safeParse({
    task: cells.task ?? '',
    reviewer: (cells.reviewer ?? '').trim() || context.options.reviewer || '',
    graded_at: cells.graded_at ?? '',
    rubric_version: cells.rubric_version ?? '',
    rubric_sha256: cells.rubric_sha256 ?? '',
    // As export grades guarded it against spreadsheets reading it as a formula: its quote taken off.
    note: cellText(cells.note ?? ''),
  });
  if (!checked.success)
    for (const issue of checked.error.issues)
      problems.push({ line: 0, column: String(issue.path[0]), message: issue.message });
  const target = targetOf(cells, context);
  if ('message' in target) problems.push(target);
  if (!checked.success || 'message' in target) return { problems };
  const row = checked.data;
  const rubric = context.rubrics.get(row.task);
  if (row.task !== target.result.task || !rubric)
    return {
      problems: [
        {
          line: 0,
          column: 'task',
          message: `"${row.task}" is not the item's task, ${target.result.task}: fix the task or the item`,
        },
      ],
    };
  if (row.rubric_version !== rubric.version || row.rubric_sha256 !== rubric.sha256)
    return {
      problems: [
        {
          line: 0,
          column: row.rubric_version !== rubric.version ? 'rubric_version' : 'rubric_sha256',
          message: `the row was graded by rubric version ${row.rubric_version} (${row.rubric_sha256.slice(0, 12)}…), ${row.task}'s rubric is version ${rubric.version} (${rubric.sha256.slice(0, 12)}…): grade again on a sheet exported now, or give the rubric it was graded by with --rubric FILE`,
        },
      ],
    };
  const verdicts = verdictsOf(cells, rubric, problems);
  if (problems.length > 0) return { problems };
  const met = new Set(Object.keys(verdicts).filter((id) => verdicts[id]));
  const grade: Omit<HumanGrade, 'id'> = {
    runId: target.run.id,
    sampleId: target.result.sampleId,
    task: row.task,
    reviewer: row.reviewer,
    rubricVersion: rubric.version,
    rubricSha256: rubric.sha256,
    verdicts,
    score: rubricScore({ criteria: [...rubric.criteria] }, met).score,
    note: row.note,
    gradedAt: row.graded_at === '' ? now : new Date(row.graded_at).toISOString(),
    source: 'csv',
  };
  return { grade, problems };
}

/** Whether a row is an ungraded line of a blank sheet: every criterion cell empty. */
function ungraded(cells: Record<string, string>): boolean {
  return Object.entries(cells).every(
    ([column, value]) => !column.startsWith(CRITERION_PREFIX) || value.trim() === '',
  );
}

function problemError(file: string, problems: readonly Problem[]): MedbenchError {
  const shown = problems
    .slice(0, 30)
    .map(
      (problem) =>
        `  line ${problem.line}${problem.column ? `, column "${problem.column}"` : ''}: ${problem.message}`,
    );
  const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `${file}: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}; nothing was imported:\n${shown.join('\n')}${more}`,
    hint: 'Fix the file and import it again (docs/grades-csv.md describes the columns); the store is unchanged.',
  });
}

/** Every row of the file as a grade, or every problem found (each with its line and column). */
async function readGrades(
  file: string,
  store: Store,
  suites: readonly Suite[],
  options: ImportGradesOptions,
) {
  const [header, ...records] = await readRecords(file);
  if (!header)
    throw problemError(file, [
      { line: 1, message: 'the file is empty: it needs a header row and a row per grade' },
    ]);
  const problems = headerProblems(header.fields, options);
  if (problems.length > 0) throw problemError(file, problems);
  const targets = reviewTargets(store, suites);
  const context: ImportContext = {
    header: header.fields,
    rubrics: reviewRubrics(suites, options.rubric),
    byKey: new Map(targets.map((target) => [`${target.run.id}\n${target.result.sampleId}`, target])),
    byToken: new Map(
      targets.map((target) => [
        options.tokenOf({ runId: target.run.id, sampleId: target.result.sampleId }),
        target,
      ]),
    ),
    options,
  };
  const now = options.now ?? new Date().toISOString();
  const grades: Array<{ grade: Omit<HumanGrade, 'id'>; timed: boolean }> = [];
  let blank = 0;
  // Rows without a time take the import's: two of one item and reviewer would tie for current.
  const untimed = new Map<string, number>();
  for (const record of records) {
    if (record.fields.length !== header.fields.length) {
      problems.push({
        line: record.line,
        message: `has ${record.fields.length} fields, the header ${header.fields.length}: a note with a comma, quote or line break must be quoted ("…", quotes doubled)`,
      });
      continue;
    }
    const cells = Object.fromEntries(header.fields.map((column, index) => [column, record.fields[index]!]));
    if (ungraded(cells)) {
      blank++;
      continue;
    }
    const read = gradeOfRow(cells, context, now);
    problems.push(...read.problems.map((problem) => ({ ...problem, line: record.line })));
    if (!read.grade) continue;
    const timed = (cells.graded_at ?? '').trim() !== '';
    const item = JSON.stringify([read.grade.runId, read.grade.sampleId, read.grade.reviewer]);
    const earlier = untimed.get(item);
    if (!timed && earlier !== undefined)
      problems.push({
        line: record.line,
        column: 'graded_at',
        message: `is blank, as on line ${earlier}, which grades the same item by ${read.grade.reviewer}: neither would be the current grade; keep one row, or give each its time`,
      });
    if (!timed) untimed.set(item, record.line);
    grades.push({ grade: read.grade, timed });
  }
  if (problems.length > 0) throw problemError(file, problems);
  return { grades, blank };
}

/**
 * `import grades FILE`: every row checked first (a problem anywhere, and nothing is written: each
 * named by line and column), then every grade added in one transaction. A grade's id is a digest
 * of what it says, so a file imported twice adds nothing the second time; a row without
 * `graded_at` (a filled sheet) takes the import's time, and is skipped when it says what the
 * reviewer's current grade of the item says.
 */
export async function importGrades(
  store: Store,
  suites: readonly Suite[],
  file: string,
  options: ImportGradesOptions,
): Promise<ImportGradesOutcome> {
  const { grades, blank } = await readGrades(file, store, suites, options);
  const known = new Set(store.humanGrades.history().map((grade) => grade.id));
  const key = (grade: Omit<HumanGrade, 'id'>) =>
    JSON.stringify([grade.runId, grade.sampleId, grade.reviewer]);
  const latest = new Map<string, Omit<HumanGrade, 'id'>>(
    store.humanGrades.current().map((grade) => [key(grade), grade]),
  );
  let added = 0;
  store.transaction(() => {
    for (const { grade, timed } of grades) {
      const id = gradeId(grade);
      // A row without a time says nothing new when it says what the reviewer's current grade says.
      if (known.has(id) || (!timed && sameGrade(latest.get(key(grade)), grade))) continue;
      store.humanGrades.add(grade);
      known.add(id);
      if ((latest.get(key(grade))?.gradedAt ?? '') <= grade.gradedAt) latest.set(key(grade), grade);
      added++;
    }
  });
  return { grades: grades.length, added, skipped: grades.length - added, ungraded: blank };
}

/** Whether two grades of an item say the same: rubric, verdicts and note (their times and sources aside). */
function sameGrade(stored: Omit<HumanGrade, 'id'> | undefined, grade: Omit<HumanGrade, 'id'>): boolean {
  if (!stored) return false;
  const verdicts = (of: Omit<HumanGrade, 'id'>) =>
    JSON.stringify(Object.entries(of.verdicts).sort(([a], [b]) => a.localeCompare(b)));
  return (
    stored.task === grade.task &&
    stored.rubricSha256 === grade.rubricSha256 &&
    stored.note === grade.note &&
    verdicts(stored) === verdicts(grade)
  );
}
