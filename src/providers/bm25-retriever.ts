import type { RankedList, Retriever } from '../core/retriever.js';
import { topK } from '../metrics/top-k.js';
import { wordTokens } from './word-tokens.js';

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

  async rank(request: {
    queries: readonly string[];
    corpus: readonly string[];
    topK: number;
  }): Promise<RankedList[]> {
    const postings = new Map<string, Array<{ document: number; frequency: number }>>();
    const lengths = new Float64Array(request.corpus.length);
    request.corpus.forEach((text, document) => {
      const counts = new Map<string, number>();
      for (const token of wordTokens(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
      lengths[document] = [...counts.values()].reduce((sum, count) => sum + count, 0);
      for (const [token, frequency] of counts) {
        let list = postings.get(token);
        if (!list) {
          list = [];
          postings.set(token, list);
        }
        list.push({ document, frequency });
      }
    });
    const total = request.corpus.length;
    const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, total) || 1;
    const scores = new Float64Array(total);
    return request.queries.map((query) => {
      scores.fill(0);
      for (const token of new Set(wordTokens(query))) {
        const list = postings.get(token);
        if (!list) continue;
        const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5));
        for (const { document, frequency } of list) {
          const norm = this.k1 * (1 - this.b + (this.b * lengths[document]!) / averageLength);
          scores[document]! += (idf * frequency * (this.k1 + 1)) / (frequency + norm);
        }
      }
      return topK(scores, request.topK);
    });
  }
}
