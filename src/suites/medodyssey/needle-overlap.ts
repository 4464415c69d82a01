import type { Language } from './constants.js';

/**
 * English stop words: NLTK's English list (the 127 words of its original release), the usual
 * list for "content words". Question words (what, which, who …) are among them, so a question's
 * form does not count as overlap.
 */
const EN_STOP_WORDS: ReadonlySet<string> = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers
herself it its itself they them their theirs themselves what which who whom this that these those am is are
was were be been being have has had having do does did doing a an the and but if or because as until while
of at by for with about against between into through during before after above below to from up down in out
on off over under again further then once here there when where why how all any both each few more most
other some such no nor not only own same so than too very s t can will just don should now`.split(/\s+/),
);

/**
 * Chinese function characters left out of a question's content: particles, pronouns, question
 * words, the copula and common prepositions (的 了 是 在 … 什 么 哪 谁 吗 呢).
 */
const ZH_STOP_CHARACTERS: ReadonlySet<string> = new Set([
  ...'的了着过是在和与及或并而且但这那其此之哪什么谁吗呢吧啊呀个位些有被把对于从以到为向也都就又还则即所',
]);

const HAN = /\p{Script=Han}/u;

/**
 * A text's content tokens, as NoLiMa's ROUGE counts them (Google's `rouge_score` tokenizer: lower
 * case, runs of a–z and 0–9, no stemming), stop words removed. Chinese has no spaces between
 * words: each Han character is a token (character-level ROUGE, as Chinese ROUGE is usually
 * computed without a segmenter), and Latin letters and digits inside it as above.
 */
export function contentTokens(text: string, language: Language): string[] {
  const lower = text.toLowerCase();
  if (language === 'en')
    return (lower.match(/[a-z0-9]+/g) ?? []).filter((token) => !EN_STOP_WORDS.has(token));
  const tokens: string[] = [];
  for (const match of lower.matchAll(/[a-z0-9]+|\p{Script=Han}/gu)) {
    const token = match[0];
    if (!(HAN.test(token) && ZH_STOP_CHARACTERS.has(token))) tokens.push(token);
  }
  return tokens;
}

function counts(tokens: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const token of tokens) map.set(token, (map.get(token) ?? 0) + 1);
  return map;
}

/**
 * Needle–question lexical overlap (NoLiMa, Modarressi et al. 2025, Table 1 and footnote 2):
 * ROUGE-1 precision of the question against the needle — the share of the question's content
 * tokens that occur in the needle, each counted at most as often as the needle has it. 0 for a
 * question with no content token.
 *
 * @example needleOverlap({ needle: 'Shuweng manages the Dream Bar.', question: 'Who manages the Dream Bar?', language: 'en' }) // 1
 */
export function needleOverlap(options: { needle: string; question: string; language: Language }): number {
  const question = contentTokens(options.question, options.language);
  if (question.length === 0) return 0;
  const needle = counts(contentTokens(options.needle, options.language));
  let matched = 0;
  for (const [token, count] of counts(question)) matched += Math.min(count, needle.get(token) ?? 0);
  return matched / question.length;
}

/** A release needle's overlap with its question (`input`), rounded to 4 decimals as a sample parameter. */
export function needleOverlapOf(needle: { needle: string; input: string }, language: Language): number {
  return (
    Math.round(10_000 * needleOverlap({ needle: needle.needle, question: needle.input, language })) / 10_000
  );
}
