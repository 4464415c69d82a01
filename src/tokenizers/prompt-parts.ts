import type { CodePointText } from './code-point-text.js';

/** A piece of a prompt: literal text, or a code-point range [start, end) of a corpus. */
export type PromptPart = string | { start: number; end: number };

export function joinPromptParts(corpus: CodePointText, parts: readonly PromptPart[]): string {
  return parts.map((part) => (typeof part === 'string' ? part : corpus.slice(part.start, part.end))).join('');
}
