/**
 * What `--limit N` made of a run: at most `first` samples of each task, the first in the
 * dataset's order (a run of several tasks keeps N of each). Kept in the run's parameters (and so
 * its id): a limited run is never taken for, or merged into, the full one.
 */
export interface SampleLimit {
  /** The N of `--limit N`. */
  first: number;
  /** Per task: the samples the run kept, and those the task has. */
  tasks: Record<string, { kept: number; of: number }>;
}

/** A run's limit, read from its stored parameters (`parameters.limit`); undefined for a full run. */
export function sampleLimitOf(parameters: Readonly<Record<string, unknown>>): SampleLimit | undefined {
  const limit = parameters.limit as Partial<SampleLimit> | null | undefined;
  if (typeof limit !== 'object' || limit === null) return undefined;
  if (typeof limit.first !== 'number' || typeof limit.tasks !== 'object' || limit.tasks === null)
    return undefined;
  return { first: limit.first, tasks: limit.tasks };
}

/**
 * What a report says of a limited run, e.g. "limited to the first 3 of 294 samples (--limit 3)",
 * or with several tasks "limited to the first 3 samples of each task (--limit 3): 6 of 40
 * samples (a 3 of 20, b 3 of 20)".
 */
export function describeSampleLimit(limit: SampleLimit): string {
  const entries = Object.entries(limit.tasks).sort(([a], [b]) => a.localeCompare(b));
  const kept = entries.reduce((sum, [, task]) => sum + task.kept, 0);
  const of = entries.reduce((sum, [, task]) => sum + task.of, 0);
  if (entries.length === 1) return `limited to the first ${kept} of ${of} samples (--limit ${limit.first})`;
  const perTask = entries.map(([name, task]) => `${name} ${task.kept} of ${task.of}`).join(', ');
  return `limited to the first ${limit.first} samples of each task (--limit ${limit.first}): ${kept} of ${of} samples (${perTask})`;
}

/** What a report says of a run's limit, from its stored parameters; null for a full run. */
export function limitText(parameters: Readonly<Record<string, unknown>>): string | null {
  const limit = sampleLimitOf(parameters);
  return limit ? describeSampleLimit(limit) : null;
}
