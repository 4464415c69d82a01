import type { EmbeddingModel } from '../core/embedding-model.js';
import { MedbenchError } from '../core/errors.js';
import type { EmbeddingCache } from '../store/embedding-cache.js';
import { sha256 } from '../store/store.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetry } from './retry.js';

export interface EmbedManyResult {
  /** Row-major, one L2-normalised row per input text. */
  vectors: Float32Array;
  dimensions: number;
  /** Texts sent to the model (unique, not cached). */
  embedded: number;
  cached: number;
  tokens: number;
}

/** What identifies a model's vectors in the cache. */
export function embeddingModelKey(model: EmbeddingModel): string {
  return sha256(
    JSON.stringify([model.provider, model.endpoint, model.modelId, model.revision, model.dimensions ?? null]),
  );
}

/** Where a model's vectors of texts in a role are cached (a model that embeds by role keeps them apart). */
function cacheKeyOf(model: EmbeddingModel, role: 'query' | 'document' | undefined): string {
  return model.inputRoles && role
    ? sha256(`${embeddingModelKey(model)}\u0000${role}`)
    : embeddingModelKey(model);
}

/** The distinct texts `embedMany` would send the model: those without a cached vector. */
export function textsToEmbed(options: {
  model: EmbeddingModel;
  texts: readonly string[];
  cache?: EmbeddingCache;
  role?: 'query' | 'document';
}): string[] {
  const key = cacheKeyOf(options.model, options.role);
  return [...new Set(options.texts)].filter((text) => !options.cache?.get(key, text));
}

function invalid(model: EmbeddingModel, message: string): MedbenchError {
  return new MedbenchError({
    code: 'EMBEDDING_INVALID',
    message: `${model.modelId} at ${model.endpoint}: ${message}`,
    hint: 'Check the model name and its declared dimensions in medbench.config.json; nothing was stored.',
  });
}

/**
 * Embeds texts through a model: unique texts only, cached vectors reused, batches of the model's
 * declared size with at most `maxParallelCalls` in flight, each retried on retryable errors.
 * Every answer is checked (one vector per input, one dimension throughout) before it is cached.
 */
export async function embedMany(options: {
  model: EmbeddingModel;
  texts: readonly string[];
  cache?: EmbeddingCache;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  /** What the texts are (queries or documents), for models that embed them differently. */
  role?: 'query' | 'document';
  onProgress?: (done: number, total: number) => void;
}): Promise<EmbedManyResult> {
  const { model } = options;
  const role = model.inputRoles ? options.role : undefined;
  const modelKey = cacheKeyOf(model, role);
  const unique = [...new Set(options.texts)];
  const byText = new Map<string, Float32Array>();
  const missing: string[] = [];
  for (const text of unique) {
    const cached = options.cache?.get(modelKey, text);
    if (cached) byText.set(text, cached);
    else missing.push(text);
  }
  let dimensions = model.dimensions ?? byText.values().next().value?.length;
  const cached = byText.size;
  let tokens = 0;
  let done = 0;
  const batches: string[][] = [];
  for (let start = 0; start < missing.length; start += model.maxEmbeddingsPerCall)
    batches.push(missing.slice(start, start + model.maxEmbeddingsPerCall));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      const { value } = await withRetry({
        policy: options.retry ?? DEFAULT_RETRY_POLICY,
        ...(options.signal ? { signal: options.signal } : {}),
        attempt: () =>
          model.embed({
            values: batch,
            ...(role ? { role } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          }),
      });
      // Array.from visits holes, which some() and filter() would skip.
      const received = Array.from(value.embeddings, (vector) => vector instanceof Float32Array).filter(
        Boolean,
      ).length;
      if (value.embeddings.length !== batch.length || received !== batch.length)
        throw invalid(model, `sent ${batch.length} texts, received ${received} embeddings.`);
      for (const vector of value.embeddings) {
        dimensions ??= vector.length;
        if (vector.length !== dimensions)
          throw invalid(
            model,
            `returned a vector of ${vector.length} dimensions where ${dimensions} were expected.`,
          );
        if (vector.some((component) => !Number.isFinite(component)))
          throw invalid(model, 'returned a vector holding NaN or infinite values.');
      }
      const entries = batch.map((text, index) => ({ text, vector: value.embeddings[index]! }));
      options.cache?.putMany(modelKey, entries);
      for (const entry of entries) byText.set(entry.text, entry.vector);
      tokens += value.usage?.tokens ?? 0;
      done += batch.length;
      options.onProgress?.(cached + done, unique.length);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(model.maxParallelCalls, batches.length)) }, worker),
  );
  const size = dimensions ?? 0;
  const vectors = new Float32Array(options.texts.length * size);
  options.texts.forEach((text, row) => {
    const vector = byText.get(text)!;
    let norm = 0;
    for (const component of vector) norm += component * component;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let column = 0; column < size; column++) vectors[row * size + column] = vector[column]! * scale;
  });
  return { vectors, dimensions: size, embedded: missing.length, cached, tokens };
}
