/** One query's ranking: corpus indexes best first, with their scores. */
export interface RankedList {
  indexes: number[];
  scores: number[];
}

/**
 * A retriever ranks a corpus for each query: sparse (BM25), classical dense (LSA), or a
 * dense embedding model behind exact search. Ties are broken by corpus order.
 */
export interface Retriever {
  readonly name: string;
  /** What identifies the retriever's results (parameters included), for run ids and reports. */
  readonly description: Record<string, unknown>;
  rank(request: {
    queries: readonly string[];
    corpus: readonly string[];
    topK: number;
  }): Promise<RankedList[]>;
}
