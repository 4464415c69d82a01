import type { CachedContent, GoogleGenAI } from '@google/genai';
import type { ChatMessage, ExplicitCacheApi, ExplicitCacheEntry } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { type BatchCallConfig, inBeta } from './gemini-batch-client.js';

/** How the cache reaches Gemini: the chat model's SDK calls (its fetch, signal and error mapping). */
export interface GeminiCacheAccess {
  modelId: string;
  call<T>(
    signal: AbortSignal | undefined,
    send: (client: GoogleGenAI, config: BatchCallConfig) => Promise<T>,
  ): Promise<T>;
  /** The system instruction and contents of messages, as `generate` sends them. */
  content(messages: readonly ChatMessage[]): { contents: unknown[]; systemInstruction?: string };
}

/**
 * The least tokens Gemini holds in a cache (the context caching guide's table, 2026-10-13: 2,048
 * for Gemini 2.5 Flash and Pro, 4,096 for Gemini 3 and later; models it does not list: 4,096).
 */
export function geminiCacheMinimum(modelId: string): number {
  return /(^|\/)gemini-2\./.test(modelId) ? 2048 : 4096;
}

/** Gemini's answer to a cache that expired or was deleted (403 "CachedContent not found"), or an unknown name (404). */
export function isCacheGone(error: unknown): boolean {
  return (
    MedbenchError.is(error) &&
    (error.status === 404 || (error.status === 403 && /CachedContent not found/i.test(error.message)))
  );
}

/** Gemini's refusal of a cache below the model's minimum (400 "Cached content is too small"). */
function isTooSmall(error: unknown): boolean {
  return (
    MedbenchError.is(error) && error.status === 400 && /too small|min_total_token_count/i.test(error.message)
  );
}

function entryOf(cache: CachedContent): ExplicitCacheEntry {
  if (!cache.name || !cache.expireTime)
    throw new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: "Gemini answered cachedContents.create without the cache's name or expireTime.",
    });
  return {
    name: cache.name,
    tokens: cache.usageMetadata?.totalTokenCount ?? 0,
    expiresAt: Date.parse(cache.expireTime),
  };
}

/**
 * Gemini's explicit context cache (`cachedContents`, under v1beta where it is documented): a
 * system instruction and leading contents held for a TTL, extended with a new one, deleted.
 */
export function geminiExplicitCache(access: GeminiCacheAccess): ExplicitCacheApi {
  return {
    minimumTokens: geminiCacheMinimum(access.modelId),
    async create(messages, options) {
      const { contents, systemInstruction } = access.content(messages);
      try {
        return await access.call(options.signal, (client, config) =>
          client.caches
            .create({
              model: access.modelId,
              config: {
                ...(contents.length > 0 ? { contents: contents as never } : {}),
                ...(systemInstruction !== undefined ? { systemInstruction } : {}),
                ttl: `${options.ttlSeconds}s`,
                ...inBeta(config),
              },
            })
            .then(entryOf),
        );
      } catch (caught) {
        if (isTooSmall(caught)) return undefined;
        throw caught;
      }
    },
    async extend(name, ttlSeconds, signal) {
      try {
        const cache = await access.call(signal, (client, config) =>
          client.caches.update({ name, config: { ttl: `${ttlSeconds}s`, ...inBeta(config) } }),
        );
        return entryOf(cache).expiresAt;
      } catch (caught) {
        if (isCacheGone(caught)) return undefined;
        throw caught;
      }
    },
    async remove(name, signal) {
      try {
        await access.call(signal, (client, config) => client.caches.delete({ name, config: inBeta(config) }));
      } catch (caught) {
        if (!isCacheGone(caught)) throw caught;
      }
    },
  };
}
