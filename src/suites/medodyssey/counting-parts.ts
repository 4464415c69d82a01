import { MedbenchError } from '../../core/errors.js';
import { codePointLength } from '../../tokenizers/code-point-text.js';
import type { PromptPart } from '../../tokenizers/prompt-parts.js';
import type { CountingType, Language } from './constants.js';
import { type CountingDraw, distinctIntegers } from './counting-draws.js';
import { type CountingHaystack, keptLength, lastAtMost } from './counting-haystack.js';
import { COUNTING_INSTRUCTION, countingSentence } from './prompts.js';
import { SeededRandom } from './seeded-random.js';

export function countingInstruction(language: Language, type: CountingType): string {
  return COUNTING_INSTRUCTION[type === 'correction' ? 'correction' : 'plain'][language];
}

/** The inserted lines of a counting sample, each wrapped in newlines. */
export function countingInsertions(
  language: Language,
  draw: Pick<CountingDraw, 'counts' | 'wrongCounts'>,
): string[] {
  return draw.counts.map(
    (count, index) =>
      `\n${countingSentence({ language, count, ...(draw.wrongCounts ? { wrongCount: draw.wrongCounts[index]! } : {}) })}\n`,
  );
}

/** Characters of a counting prompt that are not haystack: the prefix and the sentences. */
export function countingOverheadChars(
  language: Language,
  type: CountingType,
  draw: Pick<CountingDraw, 'counts' | 'wrongCounts'>,
): number {
  return (
    codePointLength(countingInstruction(language, type)) +
    countingInsertions(language, draw).reduce((sum, text) => sum + codePointLength(text), 0)
  );
}

/** The error for a sample whose kept haystack has fewer boundaries than it has sentences. */
export function countingShortOf(assembly: CountingAssembly, sampleId: string): MedbenchError | undefined {
  const distinct = new Set(assembly.haystackOffsets).size;
  if (distinct === assembly.haystackOffsets.length) return undefined;
  return new MedbenchError({
    code: 'USAGE',
    message: `${sampleId}: its ${assembly.kept} haystack characters have ${distinct} sentence boundaries, too few for ${assembly.haystackOffsets.length} counting sentences.`,
    hint: 'Build larger levels (--levels) or fewer sentences (--counting-sentences).',
  });
}

export interface CountingAssembly {
  parts: PromptPart[];
  /** Code-point offset of each counting sentence (after its leading newline) in the prompt. */
  insertOffsets: number[];
  /** Haystack characters kept after the cut. */
  kept: number;
  /** Where in the kept haystack each sentence went. */
  haystackOffsets: number[];
}

/** The insertion offsets of the draw, or k distinct seeded ones among the kept text's boundaries. */
function insertionOffsets(options: {
  haystack: CountingHaystack;
  draw: CountingDraw;
  kept: number;
  seed: string;
  sampleId: string;
}): number[] {
  const { haystack, draw, kept } = options;
  if (draw.offsets) {
    for (const [index, offset] of draw.offsets.entries()) {
      const at = lastAtMost(haystack.insertionOffsets, offset);
      if (offset > kept || at === -1 || haystack.insertionOffsets[at] !== offset) {
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${options.sampleId}: cut_offsets[${index}] = ${offset} is ${offset > kept ? `beyond the ${kept} kept haystack characters` : 'not just after a sentence boundary of the haystack'}.`,
          hint: 'The draws were made for another haystack, γ or level: use them with the release they were read from, --mic ratio and the default γ.',
        });
      }
    }
    return draw.offsets;
  }
  const available = lastAtMost(haystack.insertionOffsets, kept) + 1;
  const k = draw.counts.length;
  if (available < k) {
    // Too little text for k distinct places (only while exact MIC probes small budgets; a
    // final sample like this is refused by `countingShortOf`): the rest go to the end.
    const some = Array.from(haystack.insertionOffsets.subarray(0, available));
    return [...some, ...Array.from({ length: k - available }, () => kept)];
  }
  return distinctIntegers(new SeededRandom(options.seed), available, k).map(
    (index) => haystack.insertionOffsets[index]!,
  );
}

/**
 * Assembles a counting prompt (spec: Counting): the prefix, then the haystack cut at its last
 * cut character at or before `budget`, with the k sentences inserted at ascending offsets just
 * after boundary characters: the draw's (published) or k distinct ones drawn from `seed`.
 */
export function countingParts(options: {
  language: Language;
  type: CountingType;
  draw: CountingDraw;
  haystack: CountingHaystack;
  budget: number;
  seed: string;
  sampleId: string;
}): CountingAssembly {
  const { language, type, draw, haystack } = options;
  const kept = keptLength(haystack, options.budget);
  const offsets = insertionOffsets({ haystack, draw, kept, seed: options.seed, sampleId: options.sampleId });
  const insertions = countingInsertions(language, draw);
  const instruction = countingInstruction(language, type);
  const parts: PromptPart[] = [instruction];
  const insertOffsets: number[] = [];
  let position = codePointLength(instruction);
  let previous = 0;
  offsets.forEach((offset, index) => {
    parts.push({ start: previous, end: offset }, insertions[index]!);
    position += offset - previous;
    insertOffsets.push(position + 1);
    position += codePointLength(insertions[index]!);
    previous = offset;
  });
  parts.push({ start: previous, end: kept });
  return { parts, insertOffsets, kept, haystackOffsets: offsets };
}
