import type { CodePointText } from '../../tokenizers/code-point-text.js';
import { codePointLength } from '../../tokenizers/code-point-text.js';
import type { PromptPart } from '../../tokenizers/prompt-parts.js';
import type { CountingType, Language } from './constants.js';
import { insertionPoint } from './insertion-point.js';
import { COUNTING_INSTRUCTION, countingSentence, SENTENCE_BOUNDARIES } from './prompts.js';

export interface CountingPlan {
  /** Counts as the story states them last (the truth). */
  counts: number[];
  /** For correction: the wrong count each sentence states first. */
  wrongCounts: number[] | undefined;
}

/** The inserted lines of a counting sample, each wrapped in newlines. */
export function countingInsertions(language: Language, plan: CountingPlan): string[] {
  return plan.counts.map(
    (count, index) =>
      `\n${countingSentence({ language, count, ...(plan.wrongCounts ? { wrongCount: plan.wrongCounts[index]! } : {}) })}\n`,
  );
}

export function countingInstruction(language: Language, type: CountingType): string {
  return COUNTING_INSTRUCTION[type === 'correction' ? 'correction' : 'plain'][language];
}

export function countingOverheadChars(language: Language, type: CountingType, plan: CountingPlan): number {
  return (
    codePointLength(countingInstruction(language, type)) +
    countingInsertions(language, plan).reduce((sum, text) => sum + codePointLength(text), 0)
  );
}

/**
 * Assembles a counting prompt: instruction, then the corpus prefix of `haystackChars` with
 * k counting sentences at evenly spaced sentence boundaries (target i·H/(k+1), walked left
 * to a boundary; a cut that would not advance past the previous one moves right instead).
 */
export function countingParts(options: {
  language: Language;
  type: CountingType;
  plan: CountingPlan;
  corpus: CodePointText;
  haystackChars: number;
}): { parts: PromptPart[]; insertOffsets: number[] } {
  const { language, type, plan, corpus, haystackChars } = options;
  const boundaries = SENTENCE_BOUNDARIES[language];
  const insertions = countingInsertions(language, plan);
  const instruction = countingInstruction(language, type);
  const parts: PromptPart[] = [instruction];
  const insertOffsets: number[] = [];
  let previousCut = 0;
  let offset = codePointLength(instruction);
  insertions.forEach((insertion, index) => {
    const target = Math.floor((haystackChars * (index + 1)) / (insertions.length + 1));
    let cut = insertionPoint({ corpus, target, boundaries });
    if (cut <= previousCut) {
      cut = previousCut + 1;
      while (cut < haystackChars && !boundaries.has(corpus.charAt(cut - 1))) cut++;
    }
    cut = Math.min(cut, haystackChars);
    parts.push({ start: previousCut, end: cut }, insertion);
    offset += cut - previousCut;
    insertOffsets.push(offset + 1);
    offset += codePointLength(insertion);
    previousCut = cut;
  });
  parts.push({ start: previousCut, end: haystackChars });
  return { parts, insertOffsets };
}
