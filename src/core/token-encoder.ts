/** Contextual token vectors of texts, for BERTScore. */
export interface EncodedTokens {
  /** One vector per token, special tokens included. */
  vectors: Float32Array[];
  /** The text's own tokens are vectors[start, end). */
  start: number;
  end: number;
}

/** A model that gives contextual vectors per token (BERTScore's encoder). */
export interface TokenEncoder {
  readonly name: string;
  /** What identifies the weights and settings, recorded with the scores. */
  readonly revision: string;
  readonly batchSize: number;
  encodeTokens(texts: readonly string[]): Promise<EncodedTokens[]>;
}
