import type { RankedList, RankRequest, Retriever } from '../../core/retriever.js';
import { topKAmong } from '../../search/top-k.js';
import { tokenizeCorpus } from './bm25-tokens.js';
import { wordTokens } from './word-tokens.js';

/** The corpus as compressed postings: term → (document, frequency) runs, in document order. */
interface Bm25Index {
  termIds: Map<string, number>;
  offsets: Int32Array;
  documents: Int32Array;
  frequencies: Float64Array;
  /** k1 · (1 − b + b · |d| / avgdl) per document. */
  norms: Float64Array;
  idf: Float64Array;
}

/** Partial selection for long touched lists: keeps a bounded sorted buffer instead of sorting all. */
function topOfManyTouched(
  scores: Float64Array,
  touched: Int32Array,
  touchedCount: number,
  k: number,
): RankedList {
  const better = (left: number, right: number) =>
    scores[left]! > scores[right]! || (scores[left] === scores[right] && left < right);
  const buffer: number[] = [];
  for (let position = 0; position < touchedCount; position++) {
    const document = touched[position]!;
    if (buffer.length === k && !better(document, buffer[k - 1]!)) continue;
    let slot = buffer.length === k ? k - 1 : buffer.length;
    while (slot > 0 && better(document, buffer[slot - 1]!)) {
      if (slot < k) buffer[slot] = buffer[slot - 1]!;
      slot--;
    }
    buffer[slot] = document;
  }
  return topKAmong(scores, Int32Array.from(buffer), buffer.length, k);
}

/**
 * `--model bm25`: Okapi BM25 over word tokens (ICU word segmentation for Chinese, lower-cased
 * words for English), with an inverted index over the corpus.
 * score(d, q) = Σ over query terms t of idf(t) · f(t,d)(k1 + 1) / (f(t,d) + k1(1 − b + b·|d|/avgdl)),
 * idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5)).
 */
export class Bm25Retriever implements Retriever {
  readonly name = 'bm25';
  readonly description: Record<string, unknown>;
  private readonly k1: number;
  private readonly b: number;

  constructor(options: { k1?: number; b?: number } = {}) {
    this.k1 = options.k1 ?? 1.5;
    this.b = options.b ?? 0.75;
    this.description = {
      retriever: 'bm25',
      k1: this.k1,
      b: this.b,
      tokens: 'ICU word segmentation, lower-cased',
    };
  }

  private async index(corpus: readonly string[]): Promise<Bm25Index> {
    // Word tokens on every core for a large corpus (bm25-tokens.ts), as term ids.
    const { termIds, documentTerms } = await tokenizeCorpus(corpus);
    const lengths = new Float64Array(corpus.length);
    let postingsCount = 0;
    const documentFrequency = new Int32Array(termIds.size);
    documentTerms.forEach((ids, document) => {
      lengths[document] = ids.length;
      ids.sort();
      for (let position = 0; position < ids.length; position++) {
        if (position === 0 || ids[position] !== ids[position - 1]) {
          documentFrequency[ids[position]!]!++;
          postingsCount++;
        }
      }
    });
    const offsets = new Int32Array(termIds.size + 1);
    for (let term = 0; term < termIds.size; term++)
      offsets[term + 1] = offsets[term]! + documentFrequency[term]!;
    const cursor = offsets.slice(0, termIds.size);
    const documents = new Int32Array(postingsCount);
    const frequencies = new Float64Array(postingsCount);
    documentTerms.forEach((ids, document) => {
      for (let position = 0; position < ids.length; ) {
        const term = ids[position]!;
        let end = position;
        while (end < ids.length && ids[end] === term) end++;
        const slot = cursor[term]!++;
        documents[slot] = document;
        frequencies[slot] = end - position;
        position = end;
      }
    });
    const total = corpus.length;
    const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, total) || 1;
    const norms = lengths.map((length) => this.k1 * (1 - this.b + (this.b * length) / averageLength));
    const idf = Float64Array.from(documentFrequency, (count) =>
      Math.log(1 + (total - count + 0.5) / (count + 0.5)),
    );
    return { termIds, offsets, documents, frequencies, norms, idf };
  }

  async rank(request: RankRequest): Promise<RankedList[]> {
    const index = await this.index(request.corpus);
    const total = request.corpus.length;
    const k = Math.min(request.topK, total);
    const scores = new Float64Array(total);
    const touched = new Int32Array(total);
    const gain = this.k1 + 1;
    return request.queries.map((query) => {
      let touchedCount = 0;
      for (const token of new Set(wordTokens(query))) {
        const term = index.termIds.get(token);
        if (term === undefined) continue;
        const idf = index.idf[term]!;
        for (let slot = index.offsets[term]!; slot < index.offsets[term + 1]!; slot++) {
          const document = index.documents[slot]!;
          const frequency = index.frequencies[slot]!;
          if (scores[document] === 0) touched[touchedCount++] = document;
          scores[document]! += (idf * frequency * gain) / (frequency + index.norms[document]!);
        }
      }
      const ranking =
        touchedCount > 4 * k
          ? topOfManyTouched(scores, touched, touchedCount, k)
          : topKAmong(scores, touched, touchedCount, k);
      for (let position = 0; position < touchedCount; position++) scores[touched[position]!] = 0;
      return ranking;
    });
  }
}
