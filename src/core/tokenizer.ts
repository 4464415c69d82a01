/** A tokenizer: counts text (and where it can, encodes and decodes it) as a model's vocabulary does. */
export interface Tokenizer {
  /**
   * True when counts add up across a line start: for a text A ending in a newline preceded by a
   * non-space, and a text B starting with neither whitespace nor "/", count(A + B) equals
   * count(A) + count(B). Holds for regex-pretokenised BPE vocabularies (tiktoken style).
   */
  readonly additiveAtLineStarts: boolean;
  /**
   * True when that also holds after a run of newlines (a blank line), i.e. the character
   * before the last newline may itself be a newline. True for cl100k-style patterns, where a
   * newline run is always one piece; false for GPT-2-style ones.
   */
  readonly additiveAfterBlankLines?: boolean;
  /**
   * True when counts add up after a letter: for a text A ending in a letter (\p{L}) and a text B
   * starting with neither a letter, a combining mark (\p{M}) nor an apostrophe, count(A + B) equals
   * count(A) + count(B). Holds for the cl100k, o200k and Llama 3 split patterns, whose letter pieces
   * end at the first character that is no letter (or mark, for o200k), with a contraction suffix
   * only after an apostrophe; nothing in them looks behind a piece's start.
   */
  readonly additiveAfterLetters?: boolean;
  /** Registry name, e.g. `o200k_base`, `llama3`. */
  readonly name: string;
  /** False when the tokenizer only approximates the model's real one. */
  readonly exact: boolean;
  /** Number of tokens of `text`, without special tokens. */
  count(text: string): number;
  /**
   * Counts of many texts at once by a faster implementation of the same vocabulary (a native one
   * using every core), each equal to `count(text)`; undefined where that implementation cannot be
   * loaded on this platform. `countMany` (src/tokenizers) takes it when present.
   */
  countMany?(texts: readonly string[]): Promise<number[] | undefined>;
  /** Token ids of `text` without special tokens, where the tokenizer can give them. */
  encode?(text: string): number[];
  /** The text of token ids (the inverse of `encode`). */
  decode?(ids: readonly number[]): string;
  /**
   * What Hugging Face's `tokenizer.encode(text)` puts before the text's own tokens for this
   * model family (Llama 3: `<|begin_of_text|>`), as decoded text; absent when nothing.
   */
  readonly huggingFaceBos?: string;
}
