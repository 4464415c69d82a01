import type { Command } from 'commander';
import { repeatedOption } from '../../compose/suite-plugin.js';
import { decimal } from './program-context.js';

/**
 * The review queue's options, the same for `view`, `export grades` and `import grades`: the rubric
 * files replacing shipped ones, and the seed that names the blinded tokens, the double-rated share
 * and each reviewer's order, so every command of one team's review takes the same ones (docs/review.md).
 */
export function reviewQueueOptions(command: Command, options: { share: boolean; rubric: string }): Command {
  command.option('--rubric <file>', options.rubric, repeatedOption);
  if (options.share)
    command.option(
      '--double-share <share>',
      'share of review items graded by two reviewers, 0–1 (default 0.2)',
      decimal('--double-share', { min: 0, max: 1 }),
    );
  return command.option(
    '--review-seed <seed>',
    "the review queue's seed: blinded tokens, double-rated share, orders (default: medbench's; give every command of a review the same)",
  );
}
