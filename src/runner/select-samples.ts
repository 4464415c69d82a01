import { MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import type { SampleLimit } from '../core/sample-limit.js';

/**
 * Picks the samples a model sees: those of `task` (a task, or a comma list of them), and of a
 * per-model dataset, which holds one fitted copy per tokenizer, the tokenizer's.
 */
export function samplesFor(
  samples: readonly Sample[],
  tokenizerName: string | undefined,
  task: string | undefined,
): Sample[] {
  if (samples.length === 0) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: 'The dataset holds no samples (only its header line).',
      hint: "Build it again with its suite's build command (`medbench build --help`); check the options there that choose its tasks.",
    });
  }
  const wanted = task?.split(',').map((name) => name.trim());
  const tasks = [...new Set(samples.map((sample) => sample.task))].sort();
  const missing = wanted?.filter((name) => !tasks.includes(name)) ?? [];
  if (missing.length > 0) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `--task ${task}: the dataset has no samples of ${missing.join(', ')}; it has ${tasks.join(', ')}.`,
    });
  }
  let selected = wanted ? samples.filter((sample) => wanted.includes(sample.task)) : [...samples];
  const fitted = selected.some((sample) => sample.params.fitFor !== undefined);
  if (fitted) {
    selected = selected.filter((sample) => sample.params.fitFor === tokenizerName);
    if (selected.length === 0) {
      throw new MedbenchError({
        code: 'USAGE',
        message: `This per-model dataset holds no samples fitted for the tokenizer ${tokenizerName ?? '(none)'}.`,
        hint: 'Rebuild it with that tokenizer in --tokenizers, or pass --tokenizer to match one it has.',
      });
    }
  }
  return selected;
}

/**
 * The first `first` items of each task, in their order; `limit` says what was left out, and is
 * undefined when nothing was (no limit, or every task within it: the run is the full one).
 */
export function firstPerTask<Item>(
  items: readonly Item[],
  taskOf: (item: Item) => string,
  first: number | undefined,
): { kept: Item[]; limit: SampleLimit | undefined } {
  if (first === undefined) return { kept: [...items], limit: undefined };
  if (!Number.isInteger(first) || first < 1)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--limit ${first}: the limit is a number of samples per task, a whole number of at least 1.`,
    });
  const tasks: SampleLimit['tasks'] = {};
  const kept = items.filter((item) => {
    const name = taskOf(item);
    tasks[name] ??= { kept: 0, of: 0 };
    const task = tasks[name];
    task.of++;
    if (task.kept >= first) return false;
    task.kept++;
    return true;
  });
  const cut = Object.values(tasks).some((task) => task.kept < task.of);
  return { kept, limit: cut ? { first, tasks } : undefined };
}
