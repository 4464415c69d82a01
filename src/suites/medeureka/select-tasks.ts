import { MedbenchError } from '../../core/errors.js';
import type { RetrievalTask } from './assemble-tasks.js';
import { canonicalTaskKey, MEDEUREKA_TASK_KEYS } from './datasets.js';

/** Chooses the tasks `--tasks` names (either key spelling); unknown keys are an error. */
export function selectTasks(
  tasks: RetrievalTask[],
  wanted: string | undefined,
  data: string,
): RetrievalTask[] {
  if (!wanted) return tasks;
  const keys = wanted.split(',').map((key) => canonicalTaskKey(key.trim()));
  const unknown = keys.filter((key) => !tasks.some((task) => task.key === key));
  if (unknown.length > 0)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--tasks: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in ${data}.`,
      hint: `Tasks there: ${tasks.map((task) => task.key).join(', ')}. All MedEureka keys: ${MEDEUREKA_TASK_KEYS.join(', ')}.`,
    });
  return tasks.filter((task) => keys.includes(task.key));
}
