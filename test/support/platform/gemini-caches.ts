import { rfc3339 } from './batch-engine.js';
import {
  cachedContentSchema,
  contentsText,
  type ExplicitCache,
  type GeminiContext,
  geminiError,
  minimumCachingTokens,
} from './gemini-content.js';
import { newId } from './platform-basics.js';
import { type Answered, parseBody } from './platform-setup.js';

/** Default lifetime of an explicit cache when neither ttl nor expireTime is set (caching guide: 1 hour). */
const DEFAULT_TTL_MS = 3_600_000;

const seconds = (ttl: string) => Number(ttl.slice(0, -1)) * 1000;

export function cacheResource(cache: ExplicitCache) {
  return {
    name: cache.name,
    model: cache.model,
    ...(cache.displayName !== undefined ? { displayName: cache.displayName } : {}),
    usageMetadata: { totalTokenCount: cache.tokens },
    createTime: rfc3339(cache.createdAt),
    updateTime: rfc3339(cache.createdAt),
    expireTime: rfc3339(cache.expiresAt),
  };
}

/** Bills storage from where it was last billed to `until` (never past the cache's end). */
export function billStorage(context: GeminiContext, cache: ExplicitCache, until: number): void {
  const end = Math.min(until, cache.expiresAt);
  if (end <= cache.billedUntil) return;
  context.ledger.chargeStorage(cache.model.replace(/^models\//, ''), cache.tokens, end - cache.billedUntil);
  cache.billedUntil = end;
}

/**
 * cachedContents.create: refuses content under the model's caching minimum; the tokens are billed
 * once as a cache write, then storage for as long as the cache lives.
 */
export function createCache(
  context: GeminiContext,
  raw: unknown,
  minimum: (model: string) => number,
): Answered {
  const checked = parseBody(cachedContentSchema, raw);
  if (checked.issue)
    return { status: 400, body: geminiError(400, `${checked.issue.path}: ${checked.issue.message}`) };
  const request = checked.value;
  const text = contentsText(request.systemInstruction ?? request.system_instruction, request.contents ?? []);
  const tokens = context.countTokens(text);
  const model = request.model.replace(/^models\//, '');
  if (tokens < minimum(model))
    return {
      status: 400,
      body: geminiError(
        400,
        `Cached content is too small. total_token_count=${tokens}, min_total_token_count=${minimum(model)}`,
      ),
    };
  const now = context.clock.now();
  const cache: ExplicitCache = {
    name: `cachedContents/${newId('')}`,
    model: request.model,
    ...(request.displayName !== undefined ? { displayName: request.displayName } : {}),
    text,
    tokens,
    createdAt: now,
    expiresAt: now + (request.ttl ? seconds(request.ttl) : DEFAULT_TTL_MS),
    billedUntil: now,
    deleted: false,
  };
  context.explicit.set(cache.name, cache);
  context.ledger.charge({ mode: 'sync' }, model, {
    promptTokens: tokens,
    cachedInputTokens: 0,
    cacheWriteTokens: tokens,
    outputTokens: 0,
  });
  return { status: 200, body: cacheResource(cache) };
}

/** get, patch (a new ttl) and delete of one cache; an expired or deleted cache is not found. */
export function manageCache(context: GeminiContext, method: string, name: string, raw: unknown): Answered {
  const cache = context.explicit.get(name);
  const now = context.clock.now();
  if (!cache || cache.deleted || cache.expiresAt <= now) {
    if (cache) billStorage(context, cache, now);
    return { status: 403, body: geminiError(403, 'CachedContent not found (or permission denied)') };
  }
  if (method === 'DELETE') {
    billStorage(context, cache, now);
    cache.deleted = true;
    return { status: 200, body: {} };
  }
  if (method === 'PATCH') {
    const ttl = (raw as { ttl?: unknown }).ttl;
    if (typeof ttl !== 'string' || !/^\d+(\.\d+)?s$/.test(ttl))
      return { status: 400, body: geminiError(400, 'ttl must be a duration like "300s".') };
    billStorage(context, cache, now);
    cache.expiresAt = now + seconds(ttl);
  }
  return { status: 200, body: cacheResource(cache) };
}

export { minimumCachingTokens };
