import type { Command } from 'commander';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import { integer } from './program-context.js';

/** `report`'s options of the 95% intervals every score carries: leave them out, or set their bootstrap. */
export function addIntervalOptions(command: Command): Command {
  return command
    .option(
      '--no-intervals',
      'leave out the 95% intervals every score carries (text: the intervals table; --json and --html: every interval)',
    )
    .option(
      '--bootstrap-resamples <B>',
      `resamples of the bootstrap intervals (default ${DEFAULT_RESAMPLES})`,
      integer('--bootstrap-resamples', { min: 1 }),
    )
    .option(
      '--seed <n>',
      `seed of the bootstrap intervals (default ${DEFAULT_SEED}): the same seed, the same intervals`,
      integer('--seed', { min: 0 }),
    );
}
