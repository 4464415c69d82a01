const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * Word tokens for lexical retrieval: ICU's dictionary-based word segmentation (a proper
 * Chinese segmenter; spaces and punctuation separate English words), lower-cased,
 * punctuation dropped.
 */
export function wordTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const piece of segmenter.segment(text.toLowerCase())) {
    if (piece.isWordLike) tokens.push(piece.segment);
  }
  return tokens;
}
