export interface Tokenizer {
  /**
   * True when counts add up across a line start: for a text A ending in a newline preceded by a
   * non-space, and a text B starting with neither whitespace nor "/", count(A + B) equals
   * count(A) + count(B). Holds for regex-pretokenised BPE vocabularies (tiktoken style).
   */
  readonly additiveAtLineStarts: boolean;
  /** Registry name, e.g. `o200k_base`, `llama3`. */
  readonly name: string;
  /** False when the tokenizer only approximates the model's real one. */
  readonly exact: boolean;
  /** Number of tokens of `text`, without special tokens. */
  count(text: string): number;
}
