import { MedbenchError } from '../../core/errors.js';
import { reviewerNameProblem } from '../../core/grade-rules.js';
import type { ReviewSettings } from '../../view/review-data.js';

/**
 * `--reviewer NAME`, trimmed and checked by the rule every grade's reviewer follows
 * (`reviewerNameProblem`: `import grades` checks its reviewer cells by it too).
 */
export function reviewerName(value: string): string {
  const name = value.trim();
  const problem = reviewerNameProblem(name);
  if (problem)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--reviewer ${JSON.stringify(value)} ${problem}.`,
      hint: 'Give the name your grades are stored under, e.g. --reviewer "A. Smith" or --reviewer asmith.',
    });
  return name;
}

/** `view`'s review options, checked: the reviewer's name, a non-empty seed, the share and rubric files. */
export function reviewSettings(options: {
  reviewer?: string;
  reviewSeed?: string;
  doubleShare?: number;
  rubric?: string[];
}): ReviewSettings {
  if (options.reviewSeed?.trim() === '')
    throw new MedbenchError({
      code: 'USAGE',
      message: '--review-seed is empty.',
      hint: 'Leave it out for the default seed, or give the seed everyone grading this store uses.',
    });
  return {
    reviewer: options.reviewer === undefined ? undefined : reviewerName(options.reviewer),
    seed: options.reviewSeed,
    doubleShare: options.doubleShare,
    rubricFiles: options.rubric,
  };
}
