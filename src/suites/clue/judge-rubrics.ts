import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MedbenchError } from '../../core/errors.js';
import { describeValue, readJsonFile } from '../../io/text-file.js';
import { type Rubric, rubricSchema } from '../../metrics/judge/rubric.js';
import { JUDGED_TASKS, type JudgedTask } from './judge-task.js';

/** assets/clue/rubrics/ of the installed medbench (src/suites/clue → three levels up, as dist/suites/clue). */
export function shippedRubricFolder(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'assets', 'clue', 'rubrics');
}

const RUBRIC_HINT =
  'A rubric is { "task", "version", "definition", "sources": [...], "criteria": [{ "id", "text", "points" }, …] } (docs/judge.md); copy one of assets/clue/rubrics/*.json and edit it.';

/** Reads and checks a rubric file; every problem names the file and the field. */
export function readRubric(path: string): Rubric {
  if (!existsSync(path))
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `Rubric file not found: ${path}`,
      hint: RUBRIC_HINT,
    });
  const value = readJsonFile(path, RUBRIC_HINT);
  const parsed = rubricSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? issue.path.join('.') : '(the file)';
    const found = issue.path.reduce<unknown>(
      (node, key) =>
        node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined,
      value,
    );
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: ${field}: ${issue.message} (found ${describeValue(found)}).`,
      hint: RUBRIC_HINT,
    });
  }
  if (!(JUDGED_TASKS as readonly string[]).includes(parsed.data.task))
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: task: "${parsed.data.task}" is not a task the judge grades.`,
      hint: `Name one of ${JUDGED_TASKS.join(', ')}.`,
    });
  return parsed.data;
}

/**
 * The rubric of each judged task: the shipped one, unless a `--rubric FILE` names the task (the
 * file's own `task` field says which); two files for one task are refused.
 */
export function rubricsFor(
  files: readonly string[] = [],
): Record<JudgedTask, { rubric: Rubric; file: string }> {
  const chosen = Object.fromEntries(
    JUDGED_TASKS.map((task) => {
      const file = join(shippedRubricFolder(), `${task}.json`);
      return [task, { rubric: readRubric(file), file }];
    }),
  ) as Record<JudgedTask, { rubric: Rubric; file: string }>;
  const given = new Map<string, string>();
  for (const value of files) {
    const file = resolve(value);
    const rubric = readRubric(file);
    const earlier = given.get(rubric.task);
    if (earlier)
      throw new MedbenchError({
        code: 'USAGE',
        message: `--rubric: ${earlier} and ${file} are both rubrics of ${rubric.task}.`,
        hint: 'Give one rubric file per task.',
      });
    given.set(rubric.task, file);
    chosen[rubric.task as JudgedTask] = { rubric, file };
  }
  return chosen;
}
