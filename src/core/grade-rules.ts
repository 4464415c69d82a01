/** The longest reviewer name a grade is stored under (`view --reviewer`, `import grades`). */
export const REVIEWER_NAME_LIMIT = 64;

/** The longest note a grade takes (characters): the viewer's form, its grade route and `import grades`. */
export const NOTE_LIMIT = 2000;

/**
 * What is wrong with a reviewer name (already trimmed), or undefined when it is good: letters,
 * digits, spaces and `. _ @ ' -`, starting with a letter or digit, at most 64 characters — a name
 * each grade is stored under and CSV files carry (so it never starts like a spreadsheet formula).
 */
export function reviewerNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > REVIEWER_NAME_LIMIT)
    return `is ${name.length} characters long (at most ${REVIEWER_NAME_LIMIT})`;
  if (!/^[\p{L}\p{N}][\p{L}\p{N} ._@'-]*$/u.test(name))
    return "has characters other than letters, digits, spaces and . _ @ ' - (or starts with one of those)";
  return undefined;
}
