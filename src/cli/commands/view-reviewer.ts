import { MedbenchError } from '../../core/errors.js';
import type { ReviewSettings } from '../../view/review-data.js';

/** The longest reviewer name `--reviewer` takes. */
export const REVIEWER_NAME_LIMIT = 64;

/**
 * `--reviewer NAME`, trimmed and checked: letters, digits, spaces and `. _ @ ' -`, at most 64
 * characters — a name each grade is stored under and CSV files carry.
 */
export function reviewerName(value: string): string {
  const name = value.trim();
  const problem =
    name === ''
      ? 'is empty'
      : name.length > REVIEWER_NAME_LIMIT
        ? `is ${name.length} characters long (at most ${REVIEWER_NAME_LIMIT})`
        : /^[\p{L}\p{N}][\p{L}\p{N} ._@'-]*$/u.test(name)
          ? undefined
          : "has characters other than letters, digits, spaces and . _ @ ' - (or starts with one of those)";
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
