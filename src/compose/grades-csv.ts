import { MedbenchError } from '../core/errors.js';
import type { ReviewRubric, Suite } from '../core/suite.js';
import { csvField } from '../report/csv.js';
import type { HumanGrade } from '../store/human-grades.js';
import type { Store } from '../store/store.js';
import { namedRun } from './named-run.js';
import { restrictedTarget, reviewedSuites, reviewRubrics, reviewTargets } from './review-items.js';
import { spreadsheetCell } from './spreadsheet-cell.js';

/** The columns of a grades CSV before the criteria (docs/grades-csv.md). */
export const GRADE_COLUMNS = [
  'task',
  'run',
  'sample',
  'item',
  'reviewer',
  'graded_at',
  'rubric_version',
  'rubric_sha256',
  'score',
  'note',
] as const;

/** The columns of a blank grading sheet before the criteria: blinded (no run, sample or model). */
export const SHEET_COLUMNS = [
  'item',
  'task',
  'reviewer',
  'graded_at',
  'rubric_version',
  'rubric_sha256',
  'note',
  'input',
  'reference',
  'answer',
] as const;

/** A criterion's column: `criterion:<id>`, 1 met, 0 not met, blank when not in the row's rubric. */
export const CRITERION_PREFIX = 'criterion:';

/** An item's blinded token (the review queue's, with its seed). */
export type TokenOf = (item: { runId: string; sampleId: string }) => string;

/** RFC 4180 records, CRLF line ends. */
export function csvText(rows: ReadonlyArray<readonly string[]>): string {
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** A task `--task` names, among the reviewed suites' rubrics. */
export function reviewedTask(rubrics: ReadonlyMap<string, ReviewRubric>, task: string): ReviewRubric {
  const rubric = rubrics.get(task);
  if (!rubric)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--task ${task}: not a task people grade.`,
      hint: `Give one of ${[...rubrics.keys()].join(', ')}.`,
    });
  return rubric;
}

export interface ExportGradesOptions {
  task?: string;
  /** Runs by name (label, label#id, id prefix). */
  runs?: readonly string[];
  /** Every grade, edits included (default: each reviewer's current grade of each item). */
  history?: boolean;
  tokenOf: TokenOf;
}

/** The criterion columns: each rubric's criteria in order, then any a stored grade has beyond them. */
function criterionColumns(rubrics: readonly ReviewRubric[], grades: readonly HumanGrade[]): string[] {
  const ids = new Set(rubrics.flatMap((rubric) => rubric.criteria.map((criterion) => criterion.id)));
  for (const grade of grades) for (const id of Object.keys(grade.verdicts)) ids.add(id);
  return [...ids];
}

/**
 * `export grades`: one row per grade (each reviewer's current grade, or every grade with
 * `history`), oldest first, with the item's blinded token and one column per criterion.
 */
export function gradesCsv(store: Store, suites: readonly Suite[], options: ExportGradesOptions) {
  const rubrics = reviewRubrics(suites);
  // `--task` takes one task or a comma list, as everywhere.
  const tasks = options.task
    ?.split(',')
    .map((task) => task.trim())
    .map((task) => reviewedTask(rubrics, task));
  const reviewed = reviewedSuites(suites).map(({ suite }) => suite);
  const runIds = options.runs?.map((name) => namedRun(store, reviewed, name).id);
  const all = options.history ? store.humanGrades.history() : store.humanGrades.current();
  const grades = all
    .filter((grade) => runIds === undefined || runIds.includes(grade.runId))
    .filter((grade) => tasks === undefined || tasks.some((rubric) => rubric.task === grade.task))
    .sort((a, b) => a.gradedAt.localeCompare(b.gradedAt) || a.id.localeCompare(b.id));
  const criteria = criterionColumns(tasks ?? [...rubrics.values()], grades);
  const rows = grades.map((grade) => [
    grade.task,
    grade.runId,
    grade.sampleId,
    options.tokenOf(grade),
    grade.reviewer,
    grade.gradedAt,
    grade.rubricVersion,
    grade.rubricSha256,
    String(grade.score),
    spreadsheetCell(grade.note),
    ...criteria.map((id) => (id in grade.verdicts ? (grade.verdicts[id] ? '1' : '0') : '')),
  ]);
  const header = [...GRADE_COLUMNS, ...criteria.map((id) => `${CRITERION_PREFIX}${id}`)];
  return { text: csvText([header, ...rows]), grades: grades.length };
}

export interface BlankSheetOptions {
  task: string;
  reviewer: string;
  limit: number;
  /** The user acknowledged that the file holds restricted text (`--restricted-ok`). */
  restrictedOk?: boolean;
  /** Rubric files replacing shipped ones (`--rubric`, as the team's viewer and import take them). */
  rubric?: readonly string[];
  tokenOf: TokenOf;
  /** The reviewer's queue over the items, given everyone's current grades (the viewer's). */
  queue(
    items: ReadonlyArray<{ runId: string; sampleId: string; task: string }>,
    grades: readonly HumanGrade[],
  ): ReadonlyArray<{ runId: string; sampleId: string }>;
}

/**
 * `export grades --blank`: the reviewer's next `limit` items of the task's queue as a grading
 * sheet — blinded (the item's token, never its run, sample or model), with what a reviewer reads
 * and an empty column per criterion. Restricted text needs `restrictedOk`.
 */
export function blankSheetCsv(store: Store, suites: readonly Suite[], options: BlankSheetOptions) {
  const rubric = reviewedTask(reviewRubrics(suites, options.rubric), options.task);
  const targets = reviewTargets(store, suites, { task: options.task });
  const byKey = new Map(targets.map((target) => [`${target.run.id}\n${target.result.sampleId}`, target]));
  const items = targets.map((target) => ({
    runId: target.run.id,
    sampleId: target.result.sampleId,
    task: target.result.task,
  }));
  const grades = store.humanGrades.current({ task: options.task });
  const next = options.queue(items, grades).slice(0, options.limit);
  const chosen = next.map((item) => byKey.get(`${item.runId}\n${item.sampleId}`)!);
  const restricted =
    targets[0]?.suite.restrictedTasks?.[options.task] !== undefined ||
    chosen.some((target) => restrictedTarget(store, target));
  if (!options.restrictedOk && restricted)
    throw new MedbenchError({
      code: 'DATA_RESTRICTED',
      message: `The grading sheet of ${options.task} would hold restricted text (a data-use agreement covers the task, or its run was made with --restricted): the inputs, references and answers.`,
      hint: 'Give --restricted-ok to acknowledge that the file holds restricted text and must be kept as the agreement requires (docs/credentialed-data.md); or grade in the viewer (medbench view).',
    });
  const rows = chosen.map((target) => {
    const prompt = target.result.promptHash ? (store.getPrompt(target.result.promptHash) ?? null) : null;
    const text = target.review.itemOf(target.result, prompt)!;
    return [
      options.tokenOf({ runId: target.run.id, sampleId: target.result.sampleId }),
      options.task,
      options.reviewer,
      '',
      rubric.version,
      rubric.sha256,
      '',
      spreadsheetCell(text.input),
      spreadsheetCell(text.reference),
      spreadsheetCell(text.answer),
      ...rubric.criteria.map(() => ''),
    ];
  });
  const header = [
    ...SHEET_COLUMNS,
    ...rubric.criteria.map((criterion) => `${CRITERION_PREFIX}${criterion.id}`),
  ];
  return { text: csvText([header, ...rows]), items: rows.length, rubric };
}
