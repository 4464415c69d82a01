import { closeSync, openSync, readSync } from 'node:fs';
import type { RunRecord, StoredResult } from '../core/run-record.js';
import type { ScoredTask } from '../core/scored-task.js';
import type { Suite } from '../core/suite.js';
import type { Store } from '../store/store.js';
import { recordedRestriction } from './run-recipe.js';
import { storedRuns } from './stored-report.js';

/** What a standard log holds in place of text a data-use agreement keeps from being shared. */
export const WITHHELD_TEXT = '[withheld: restricted data]';

/**
 * A stored result as a standard log may show it: its prompt's text beside it; when `withheld`,
 * the prompt, output, parsed answer, gold and error text are dropped (null) and the log writes
 * `WITHHELD_TEXT` where a format needs a string.
 */
export interface LoggedResult extends StoredResult {
  prompt: string | null;
  withheld: boolean;
}

/** A run as a standard log shows it: its suite, record and results. */
export interface LoggedRun {
  suite: Suite;
  run: RunRecord;
  results: LoggedResult[];
  /** What the run's explicit caches (Gemini's) cost, by task: billed apart from the answers. */
  cacheCosts: Record<string, number>;
}

/** What made a log: medbench's version (`src/version.ts`, which the CLI hands in). */
export interface LogMaker {
  version: string;
}

/** Which stored runs to log, and whether every run's text is to be withheld. */
export interface LogSelection {
  suites: readonly Suite[];
  /** Only this suite's runs; absent: every suite's. */
  suite?: string;
  /** Run ids or id prefixes; absent: every run. */
  runIds?: readonly string[];
  /** Withhold every run's text (data marked restricted when it was run: `--restricted`). */
  restricted?: boolean;
}

/** The first line of a file (at most 4 MB), or undefined when it cannot be read. */
function firstLine(path: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    const chunks: Buffer[] = [];
    for (let read = 0; read < 4 * 1024 * 1024; ) {
      const chunk = Buffer.alloc(64 * 1024);
      const count = readSync(descriptor, chunk, 0, chunk.length, read);
      if (count === 0) break;
      const end = chunk.subarray(0, count).indexOf(10);
      chunks.push(chunk.subarray(0, end === -1 ? count : end));
      if (end !== -1) break;
      read += count;
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Whether the run's data were marked restricted where medbench can still see it: a dataset file
 * (`run --dataset`) whose header says `"restricted": true`, at the path the run recorded.
 */
function datasetSaysRestricted(run: RunRecord): boolean {
  if (!run.datasetPath) return false;
  const header = firstLine(run.datasetPath);
  if (header === undefined) return false;
  try {
    const value = JSON.parse(header) as { medbenchDataset?: unknown; restricted?: unknown };
    return value.medbenchDataset !== undefined && value.restricted === true;
  } catch {
    return false;
  }
}

/**
 * Whether the run's manifest recorded all of its data as restricted: marked `--restricted`, or
 * restricted in a suite whose restriction is the whole run's (no `restrictedTasks`: a dataset file
 * marked restricted); CLUE's MIMIC-derived tasks are withheld by task, the rest of the run kept.
 */
function recipeSaysRestricted(store: Store, suite: Suite, run: RunRecord): boolean {
  const data = recordedRestriction(store, run.id);
  return data?.marked === true || (data?.level === 'restricted' && suite.restrictedTasks === undefined);
}

/**
 * Whether a result's text is withheld: the export or the run's dataset file says so, its task
 * is restricted in its suite, or its run kept none (`run --redact`: hashes and lengths only).
 */
function isWithheld(suite: Suite, result: StoredResult, restricted: boolean): boolean {
  return restricted || suite.restrictedTasks?.[result.task] !== undefined || Boolean(result.redaction);
}

/** A result with its prompt's text, or with every text dropped when it is withheld. */
function loggedResult(store: Store, result: StoredResult, withheld: boolean): LoggedResult {
  if (withheld)
    return {
      ...result,
      prompt: null,
      rawOutput: null,
      parsed: null,
      gold: null,
      // A --redact run's error is stored redacted already; any other may echo the prompt.
      error: result.error === null || result.redaction ? result.error : WITHHELD_TEXT,
      withheld,
    };
  const prompt = result.promptHash === null ? null : (store.getPrompt(result.promptHash) ?? null);
  return { ...result, prompt, withheld };
}

/** The stored runs a standard log covers, their restricted text withheld before it leaves the store. */
export function loggedRuns(store: Store, selection: LogSelection): LoggedRun[] {
  const suites = selection.suite
    ? selection.suites.filter((suite) => suite.name === selection.suite)
    : selection.suites;
  return suites.flatMap((suite) =>
    storedRuns(store, suite, selection.runIds ? { runIds: selection.runIds } : {}).map(({ run, results }) => {
      const restricted =
        selection.restricted === true ||
        datasetSaysRestricted(run) ||
        recipeSaysRestricted(store, suite, run);
      return {
        suite,
        run,
        results: results.map((result) => loggedResult(store, result, isWithheld(suite, result, restricted))),
        cacheCosts: Object.fromEntries(store.explicitCaches.costsOf(run.id)),
      };
    }),
  );
}

/** The metric a task's results are shown by first: its own, the suite's for the task, or the suite's. */
export function primaryMetricOf(suite: Suite, task: string): string {
  return suite.tasks?.[task]?.primaryMetric ?? suite.primaryMetrics?.[task] ?? suite.primaryMetric;
}

/** One row of a suite's report for a run: a scored task of one metric variant, and its score over the rows it holds. */
export interface ScoredFigure {
  variant: string;
  task: ScoredTask;
  /** The score (a fraction in [0, 1]), as the report computes it from the rows' sums. */
  score: number;
  rows: readonly LoggedResult[];
}

/**
 * A run's report rows as its suite scores them (`Suite.scoring`): every variant's scored tasks
 * over the results the suite counts; none for a suite without scoring.
 */
export function scoredFigures(logged: LoggedRun): ScoredFigure[] {
  const { suite, run, results } = logged;
  const scoring = suite.scoring;
  if (!scoring) return [];
  const counted = results.filter((row) => suite.counts?.(row, run) ?? true);
  return scoring.variants.flatMap((variant) =>
    scoring.tasks(variant, counted).flatMap((task) => {
      const rows = counted.filter((row) => task.includes(row));
      if (rows.length === 0) return [];
      const totals = new Float64Array(task.sums(rows[0]!).length);
      for (const row of rows)
        task.sums(row).forEach((value, index) => {
          totals[index]! += value;
        });
      const score = task.score(totals);
      // A score that is not a number (nothing to count) is no figure in a log.
      return Number.isFinite(score) ? [{ variant, task, score, rows }] : [];
    }),
  );
}

/**
 * A gold answer as reference strings: a string, a list of strings, an object's `answers` list, or
 * its canonical JSON text; none when withheld.
 */
export function goldReferences(gold: unknown): string[] {
  if (gold === null || gold === undefined) return [];
  if (typeof gold === 'string') return [gold];
  if (Array.isArray(gold) && gold.every((item) => typeof item === 'string')) return gold;
  const answers = (gold as { answers?: unknown }).answers;
  if (Array.isArray(answers) && answers.every((item) => typeof item === 'string')) return answers;
  return [JSON.stringify(gold)];
}

/** A parsed answer as text: itself when a string, else its JSON text; null when there is none. */
export function answerText(parsed: unknown): string | null {
  if (parsed === null || parsed === undefined) return null;
  return typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
}
