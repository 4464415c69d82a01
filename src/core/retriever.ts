/** One query's ranking: corpus indexes best first, with their scores. */
export interface RankedList {
  indexes: number[];
  scores: number[];
}

/** What a retriever ranks: the queries against the corpus, top k of each. */
export interface RankRequest {
  queries: readonly string[];
  /**
   * The queries as an instruction-tuned model should see them (instruction applied by the
   * model's template); retrievers with `usesInstructions` embed these instead of `queries`.
   */
  queryInputs?: readonly string[];
  corpus: readonly string[];
  topK: number;
  signal?: AbortSignal;
}

/**
 * A retriever ranks a corpus for each query: sparse (BM25), classical dense (LSA), or a
 * dense embedding model behind exact search. Ties are broken by corpus order.
 */
export interface Retriever {
  readonly name: string;
  /** What identifies the retriever's results (parameters included), for run ids and reports. */
  readonly description: Record<string, unknown>;
  /** The instruction template it applies to queries; undefined for retrievers that take none. */
  readonly instructionTemplate?: string;
  rank(request: RankRequest): Promise<RankedList[]>;
}
