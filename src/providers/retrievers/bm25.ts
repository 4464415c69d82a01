const EN_STOPWORDS = new Set(
  'a an and are as at be by did do does for from has have how in is it its of on or that the this to was were what when where which who whom why with'.split(
    ' ',
  ),
);

/** Terms for lexical matching: lower-cased Latin words (stop words dropped) and CJK unigrams and bigrams. */
export function lexicalTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{Script=Han}]+|[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (/\p{Script=Han}/u.test(word)) {
      const characters = [...word];
      characters.forEach((character, index) => {
        terms.push(character);
        if (index + 1 < characters.length) terms.push(character + characters[index + 1]);
      });
    } else if (!EN_STOPWORDS.has(word)) {
      terms.push(word);
    }
  }
  return terms;
}

/** Okapi BM25 scores of `documents` (pre-split into terms) for `query` terms. */
export function bm25Scores(options: {
  query: readonly string[];
  documents: ReadonlyArray<readonly string[]>;
  k1?: number;
  b?: number;
}): number[] {
  const k1 = options.k1 ?? 1.5;
  const b = options.b ?? 0.75;
  const { documents } = options;
  const averageLength =
    documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, documents.length);
  const documentFrequency = new Map<string, number>();
  for (const document of documents) {
    for (const term of new Set(document)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const queryTerms = [...new Set(options.query)];
  return documents.map((document) => {
    const frequencies = new Map<string, number>();
    for (const term of document) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of queryTerms) {
      const frequency = frequencies.get(term);
      if (!frequency) continue;
      const containing = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (documents.length - containing + 0.5) / (containing + 0.5));
      score +=
        (idf * frequency * (k1 + 1)) /
        (frequency + k1 * (1 - b + (b * document.length) / (averageLength || 1)));
    }
    return score;
  });
}
