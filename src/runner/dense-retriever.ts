import type { EmbeddingModel } from '../core/embedding-model.js';
import { MedbenchError } from '../core/errors.js';
import type { RankedList, RankRequest, Retriever } from '../core/retriever.js';
import { exactSearch } from '../search/exact-search.js';
import type { EmbeddingCache } from '../store/embedding-cache.js';
import { embedMany, textsToEmbed } from './embed-many.js';
import type { RetryPolicy } from './retry.js';

export interface DenseRetrieverOptions {
  model: EmbeddingModel;
  /** Instruction template name or literal (recorded with results); `none` for models without one. */
  instructionTemplate: string;
  cache?: EmbeddingCache;
  retry?: RetryPolicy;
  onProgress?: (stage: 'corpus' | 'queries', done: number, total: number) => void;
}

/** A dense retriever: an embedding model, L2-normalised vectors, exact cosine top-k search. */
export class DenseRetriever implements Retriever {
  readonly name: string;
  readonly description: Record<string, unknown>;
  readonly instructionTemplate: string;
  /** Texts embedded and cache hits over this retriever's life. */
  readonly usage = { embedded: 0, cached: 0, tokens: 0 };

  constructor(private readonly options: DenseRetrieverOptions) {
    const { model } = options;
    this.name = model.modelId;
    this.instructionTemplate = options.instructionTemplate;
    this.description = {
      kind: 'dense',
      provider: model.provider,
      modelId: model.modelId,
      endpoint: model.endpoint,
      revision: model.revision,
      ...(model.dimensions !== undefined ? { dimensions: model.dimensions } : {}),
      instructionTemplate: options.instructionTemplate,
      similarity: 'cosine',
      search: 'exact',
    };
  }

  /** What `rank` would send the model for these texts: the distinct ones without a cached vector. */
  toEmbed(texts: { corpus: readonly string[]; queryInputs: readonly string[] }): {
    corpus: string[];
    queries: string[];
  } {
    const common = {
      model: this.options.model,
      ...(this.options.cache ? { cache: this.options.cache } : {}),
    };
    return {
      corpus: textsToEmbed({ ...common, texts: texts.corpus, role: 'document' }),
      queries: textsToEmbed({ ...common, texts: texts.queryInputs, role: 'query' }),
    };
  }

  async rank(request: RankRequest): Promise<RankedList[]> {
    const common = {
      model: this.options.model,
      ...(this.options.cache ? { cache: this.options.cache } : {}),
      ...(this.options.retry ? { retry: this.options.retry } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    };
    const corpus = await embedMany({
      ...common,
      texts: request.corpus,
      role: 'document',
      onProgress: (done, total) => this.options.onProgress?.('corpus', done, total),
    });
    const queries = await embedMany({
      ...common,
      texts: request.queryInputs ?? request.queries,
      role: 'query',
      onProgress: (done, total) => this.options.onProgress?.('queries', done, total),
    });
    for (const part of [corpus, queries]) {
      this.usage.embedded += part.embedded;
      this.usage.cached += part.cached;
      this.usage.tokens += part.tokens;
    }
    if (corpus.dimensions !== queries.dimensions && request.queries.length > 0) {
      throw new MedbenchError({
        code: 'EMBEDDING_INVALID',
        message: `${this.name}: query vectors have ${queries.dimensions} dimensions, corpus vectors ${corpus.dimensions}.`,
      });
    }
    return exactSearch({
      queries: queries.vectors,
      corpus: corpus.vectors,
      dimensions: corpus.dimensions,
      topK: request.topK,
    });
  }
}
