import type { ChatMessage } from '../core/chat-model.js';
import { messagesDigest } from './response-cache-key.js';

/** The prices an explicit cache is weighed with, per million tokens (storage: per hour held). */
export interface ExplicitCachePrices {
  inputPerMillion: number;
  cachedInputPerMillion: number;
  storagePerMillionPerHour: number;
}

/** One group of requests sharing whole leading messages, as the decision sees it. */
export interface ExplicitCacheCase {
  /** Tokens of the shared leading messages. */
  prefixTokens: number;
  /** Requests that would read the cache. */
  requests: number;
  /** How long the cache would be held, in hours. */
  hours: number;
  /** The provider's least tokens for a cache of this model. */
  minimumTokens: number;
  prices: ExplicitCachePrices;
}

export interface ExplicitCacheVerdict {
  pays: boolean;
  /** What the shared tokens cost with the cache: made once at the input price, read at the cached price, stored. */
  withCache: number;
  /** What they cost sent with every request at the input price. */
  without: number;
  why: string;
}

/**
 * Whether an explicit cache of a shared prefix pays, from the documented prices: made once (its
 * tokens billed at the input price), read by every request at the cached price, stored for
 * `hours` — against sending the prefix with every request at the input price. Implicit caching
 * is not counted on: it guarantees no saving. Below the provider's minimum, no cache is possible.
 */
export function explicitCachePays(group: ExplicitCacheCase): ExplicitCacheVerdict {
  const { prefixTokens, requests, hours, prices } = group;
  const millions = prefixTokens / 1_000_000;
  const without = requests * millions * prices.inputPerMillion;
  const withCache =
    millions * prices.inputPerMillion +
    requests * millions * prices.cachedInputPerMillion +
    millions * prices.storagePerMillionPerHour * hours;
  if (prefixTokens < group.minimumTokens)
    return {
      pays: false,
      withCache,
      without,
      why: `${prefixTokens} shared tokens, below the minimum of ${group.minimumTokens}`,
    };
  const pays = withCache < without;
  return {
    pays,
    withCache,
    without,
    why: `${requests} requests sharing ${prefixTokens} tokens: ${withCache.toPrecision(3)} with a cache, ${without.toPrecision(3)} without`,
  };
}

/** A guess at how long one request takes (a few-shot prompt and a short answer), for the hold time. */
export const SECONDS_PER_REQUEST = 15;
/** The shortest and longest lifetime a cache is made with; one that outlasts it is extended. */
export const MIN_TTL_SECONDS = 120;
export const MAX_TTL_SECONDS = 3600;

/**
 * How long a group's cache is made to live, in seconds: its requests shared by the run's
 * concurrency at `SECONDS_PER_REQUEST` each, within `MIN_TTL_SECONDS` and `MAX_TTL_SECONDS`.
 */
export function holdSeconds(requests: number, concurrency: number): number {
  const seconds = Math.ceil(requests / Math.max(1, concurrency)) * SECONDS_PER_REQUEST;
  return Math.min(MAX_TTL_SECONDS, Math.max(MIN_TTL_SECONDS, seconds));
}

/**
 * How many of a conversation's leading messages an explicit cache could hold: every message
 * before the last user turn (the item's own), so that the cache holds whole messages and the
 * text read is unchanged. 0 when that is nothing, or when a system message comes after it (the
 * request would need a system instruction of its own, which a request naming a cache may not have).
 */
export function sharedLeadingMessages(messages: readonly ChatMessage[]): number {
  let last = -1;
  for (let index = 0; index < messages.length; index++) if (messages[index]!.role === 'user') last = index;
  if (last <= 0) return 0;
  return messages.slice(last).some((message) => message.role === 'system') ? 0 : last;
}

/** Requests sharing the same leading whole messages. */
export interface LeadingGroup<Item> {
  /** Digest of the leading messages (the key a killed run's stored cache is found by). */
  digest: string;
  prefix: readonly ChatMessage[];
  items: Item[];
}

/** The conversations grouped by the leading whole messages an explicit cache could hold (`sharedLeadingMessages`). */
export function leadingGroups<Item>(
  items: readonly Item[],
  conversation: (item: Item) => readonly ChatMessage[],
): Array<LeadingGroup<Item>> {
  const groups = new Map<string, LeadingGroup<Item>>();
  for (const item of items) {
    const messages = conversation(item);
    const count = sharedLeadingMessages(messages);
    if (count === 0) continue;
    const prefix = messages.slice(0, count);
    const digest = messagesDigest(prefix);
    const group = groups.get(digest);
    if (group) group.items.push(item);
    else groups.set(digest, { digest, prefix, items: [item] });
  }
  return [...groups.values()];
}
