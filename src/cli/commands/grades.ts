import { blankSheetCsv, gradesCsv } from '../../compose/grades-csv.js';
import { importGrades } from '../../compose/grades-import.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { writeOutputFile } from '../../compose/output-file.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import type { Suite } from '../../core/suite.js';
import { Store } from '../../store/store.js';
import { DEFAULT_DOUBLE_SHARE, REVIEW_SEED, reviewQueue, reviewToken } from '../../view/review-queue.js';
import { reviewerName, reviewSettings } from './view-reviewer.js';

/** A count and its noun, singular for one: `1 grade`, `2 grades`. */
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** An item's blinded token with the review queue's seed (`--review-seed`, the viewer's): what a sheet carries. */
const tokensOf = (options: { reviewSeed?: string }) => {
  const seed = reviewSeed(options);
  return (item: { runId: string; sampleId: string }) => reviewToken(seed, item);
};

/** `--review-seed`, or the default; an empty one is refused (as `view` refuses it). */
function reviewSeed(options: { reviewSeed?: string }): string {
  return reviewSettings({ reviewSeed: options.reviewSeed }).seed ?? REVIEW_SEED;
}

export interface ExportGradesCommandOptions {
  task?: string;
  run?: string[];
  history?: boolean;
  out?: string;
  blank?: boolean;
  reviewer?: string;
  limit?: number;
  restrictedOk?: boolean;
  rubric?: string[];
  reviewSeed?: string;
  doubleShare?: number;
  home?: string;
}

/** The blank sheet's options, checked: it is one reviewer's queue of one task. */
function blankOptions(options: ExportGradesCommandOptions): { task: string; reviewer: string } {
  if (!options.task || !options.reviewer?.trim())
    throw new MedbenchError({
      code: 'USAGE',
      message: `export grades --blank needs ${!options.task ? '--task' : '--reviewer'}: a grading sheet is one reviewer's queue of one task.`,
      hint: 'medbench export grades --blank --task meqsum --reviewer NAME --limit 20 --out sheet.csv',
    });
  if (options.run || options.history)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--${options.run ? 'run' : 'history'} is not an option of a blank sheet: it holds the reviewer's next items of every run, blinded.`,
      hint: 'Leave it out, or export grades without --blank.',
    });
  return { task: options.task, reviewer: reviewerName(options.reviewer) };
}

function writeCsv(text: string, out: string | undefined, output: CommandOutput, what: string): void {
  if (!out) return void output.stdout(text);
  writeOutputFile(out, text);
  output.stderr(`Wrote ${what} to ${out}.\n`);
}

/** `medbench export grades`: people's grades as CSV, or a blank grading sheet (`--blank`). */
export function exportGradesCommand(
  options: ExportGradesCommandOptions,
  context: { output: CommandOutput; suites: readonly Suite[] },
): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    if (options.blank) {
      const { task, reviewer } = blankOptions(options);
      const sheet = blankSheetCsv(store, context.suites, {
        task,
        reviewer,
        limit: options.limit ?? 50,
        restrictedOk: options.restrictedOk === true,
        ...(options.rubric ? { rubric: options.rubric } : {}),
        tokenOf: tokensOf(options),
        queue: (items, grades) =>
          reviewQueue(items, grades, {
            seed: reviewSeed(options),
            doubleShare: options.doubleShare ?? DEFAULT_DOUBLE_SHARE,
            reviewer,
          }).next,
      });
      const criteria = sheet.rubric.criteria
        .map(
          (criterion) =>
            `  ${criterion.id} (${criterion.points > 0 ? '+' : ''}${criterion.points}): ${criterion.text}`,
        )
        .join('\n');
      context.output.stderr(
        `Rubric of ${task}, version ${sheet.rubric.version} (${sheet.rubric.file}): mark each criterion 1 (met) or 0 (not met); a negative criterion is met when the answer does what it says.\n${criteria}\n`,
      );
      writeCsv(
        sheet.text,
        options.out,
        context.output,
        `${counted(sheet.items, 'item')} of ${reviewer}'s queue of ${task}`,
      );
      return;
    }
    const exported = gradesCsv(store, context.suites, {
      ...(options.task !== undefined ? { task: options.task } : {}),
      ...(options.run ? { runs: options.run } : {}),
      history: options.history === true,
      tokenOf: tokensOf(options),
    });
    writeCsv(exported.text, options.out, context.output, counted(exported.grades, 'grade'));
  } finally {
    store.close();
  }
}

/** `medbench import grades FILE`: grades from a CSV file, all checked before any is added. */
export async function importGradesCommand(
  file: string,
  options: { reviewer?: string; rubric?: string[]; reviewSeed?: string; home?: string },
  context: { output: CommandOutput; suites: readonly Suite[] },
): Promise<void> {
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    const outcome = await importGrades(store, context.suites, file, {
      ...(options.reviewer !== undefined ? { reviewer: reviewerName(options.reviewer) } : {}),
      ...(options.rubric ? { rubric: options.rubric } : {}),
      tokenOf: tokensOf(options),
    });
    const ungraded =
      outcome.ungraded > 0
        ? `; ${counted(outcome.ungraded, 'row')} left ungraded (every criterion blank) ${outcome.ungraded === 1 ? 'was' : 'were'} passed over`
        : '';
    context.output.stdout(
      `Imported ${file}: ${counted(outcome.added, 'grade')} added, ${outcome.skipped} skipped (already stored, or repeated in the file)${ungraded}.\n`,
    );
  } finally {
    store.close();
  }
}
