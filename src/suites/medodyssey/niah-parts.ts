import type { CodePointText } from '../../tokenizers/code-point-text.js';
import { codePointLength } from '../../tokenizers/code-point-text.js';
import type { PromptPart } from '../../tokenizers/prompt-parts.js';
import type { Language } from './constants.js';
import { insertionPoint } from './insertion-point.js';
import { NIAH_INSTRUCTION, niahQuestion, SENTENCE_BOUNDARIES } from './prompts.js';

export interface NiahPartsOptions {
  language: Language;
  needle: string;
  question: string;
  depth: number;
  corpus: CodePointText;
  /** Haystack characters (code points) in the context, needle excluded. */
  haystackChars: number;
}

export interface NiahParts {
  parts: PromptPart[];
  /** Code-point offset of the needle text inside the final prompt. */
  needleOffset: number;
}

/** The needle with the newlines that separate it from the haystack at this depth. */
export function needleWithNewlines(needle: string, depth: number): string {
  if (depth === 0) return `${needle}\n`;
  if (depth === 100) return `\n${needle}`;
  return `\n${needle}\n`;
}

/** Characters of a NIAH prompt that are not haystack. */
export function niahOverheadChars(options: {
  language: Language;
  needle: string;
  question: string;
  depth: number;
}): number {
  return (
    codePointLength(NIAH_INSTRUCTION[options.language]) +
    codePointLength(needleWithNewlines(options.needle, options.depth)) +
    codePointLength(niahQuestion(options.language, options.question))
  );
}

/**
 * Assembles a NIAH prompt: instruction, the corpus prefix of `haystackChars` with the
 * needle inserted at `depth`, then the question.
 */
export function niahParts(options: NiahPartsOptions): NiahParts {
  const { language, depth, corpus, haystackChars } = options;
  const instruction = NIAH_INSTRUCTION[language];
  const needle = needleWithNewlines(options.needle, depth);
  const question = niahQuestion(language, options.question);
  const instructionLength = codePointLength(instruction);
  const needleLead = depth === 0 ? 0 : 1;
  if (depth === 0) {
    return {
      parts: [instruction, needle, { start: 0, end: haystackChars }, question],
      needleOffset: instructionLength,
    };
  }
  if (depth === 100) {
    return {
      parts: [instruction, { start: 0, end: haystackChars }, needle, question],
      needleOffset: instructionLength + haystackChars + needleLead,
    };
  }
  const cut = insertionPoint({
    corpus,
    target: Math.floor((haystackChars * depth) / 100),
    boundaries: SENTENCE_BOUNDARIES[language],
  });
  return {
    parts: [instruction, { start: 0, end: cut }, needle, { start: cut, end: haystackChars }, question],
    needleOffset: instructionLength + cut + needleLead,
  };
}
