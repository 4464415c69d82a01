import { seededRandom, seedOf } from '../../metrics/uncertainty/index.js';

/**
 * The probes of a judge (docs/judge-probes.md): `swap` puts the answer to grade before the
 * reference answer in the judge's user message; `padding` lengthens the answer with content-free
 * sentences. Everything else the judge reads stays the same, byte for byte.
 */
export const JUDGE_PROBES = ['swap', 'padding'] as const;
export type JudgeProbe = (typeof JUDGE_PROBES)[number];

/** How many times its characters a padded answer gets unless `--pad-factor` says otherwise. */
export const DEFAULT_PAD_FACTOR = 2;

/**
 * The padding: neutral sentences that state nothing (no fact, no clinical claim, no instruction to
 * the judge), worded without the common function words, so that most references share none of them.
 */
export const PADDING_SENTENCES: readonly string[] = [
  'Formatting continues below.',
  'Layout spacing kept here.',
  'Section break follows.',
  'Remaining lines hold nothing new.',
  'Wording ends shortly.',
  'Punctuation kept consistent throughout.',
  'Output structure unchanged.',
  'Closing remark without substance.',
  'Nothing further added.',
  'Thanks again.',
  'Kind regards.',
  'Written quickly.',
  'Paragraph ends.',
  'Hope everything reads clearly.',
  'Reply complete.',
  'Message finished.',
];

/** A text's words: runs of letters or digits, lower-cased. */
export function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * The answer lengthened to at least `factor` times its characters (overshooting by less than one
 * sentence) with padding sentences drawn from `sampleId`'s seed — the same item always gets the
 * same padding —, only those sharing no word with the reference. Null when every sentence does.
 */
export function padAnswer(
  answer: string,
  options: { sampleId: string; reference: string; factor: number },
): string | null {
  const taken = wordsOf(options.reference);
  const allowed = PADDING_SENTENCES.filter((sentence) =>
    [...wordsOf(sentence)].every((word) => !taken.has(word)),
  );
  if (allowed.length === 0) return null;
  const random = seededRandom(seedOf(`padding:${options.sampleId}`));
  const target = Math.round(options.factor * answer.length);
  let padded = answer;
  let previous = -1;
  while (padded.length < target) {
    // Never the same sentence twice in a row, when there is a choice.
    let index = Math.floor(random() * allowed.length);
    if (index === previous && allowed.length > 1) index = (index + 1) % allowed.length;
    padded += ` ${allowed[index]}`;
    previous = index;
  }
  return padded;
}
