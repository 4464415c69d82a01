const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Runs of ASCII word characters, and what ICU would join across (MidLetter / MidNum punctuation). */
const ASCII_WORD = /[a-z0-9_]+/g;
const MID_PUNCTUATION = /[a-z0-9_][.,:;'][a-z0-9_]/;

/**
 * Word tokens for lexical retrieval: ICU's dictionary-based word segmentation (a proper
 * Chinese segmenter; spaces and punctuation separate English words), lower-cased,
 * punctuation dropped. Plain ASCII text without word-internal punctuation takes a regular
 * expression that yields exactly ICU's tokens, several times faster.
 */
export function wordTokens(text: string): string[] {
  const lower = text.toLowerCase();
  if (!/[^\x00-\x7f]/.test(lower) && !MID_PUNCTUATION.test(lower)) return lower.match(ASCII_WORD) ?? [];
  const tokens: string[] = [];
  for (const piece of segmenter.segment(lower)) {
    if (piece.isWordLike) tokens.push(piece.segment);
  }
  return tokens;
}
