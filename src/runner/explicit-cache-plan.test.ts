import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../core/chat-model.js';
import {
  explicitCachePays,
  holdSeconds,
  leadingGroups,
  MAX_TTL_SECONDS,
  MIN_TTL_SECONDS,
  sharedLeadingMessages,
} from './explicit-cache-plan.js';

// Gemini 2.5 Flash's list prices: $0.30 input, $0.03 cached, $1.00 per million tokens an hour held.
const FLASH = { inputPerMillion: 0.3, cachedInputPerMillion: 0.03, storagePerMillionPerHour: 1 };

describe('explicitCachePays', () => {
  it('20 requests sharing 10,000 tokens for half an hour: $0.0135 with a cache against $0.06 without', () => {
    // Made: 0.01 M × 0.30 = 0.003; read: 20 × 0.01 × 0.03 = 0.006; stored: 0.01 × 1 × 0.5 = 0.005.
    const verdict = explicitCachePays({
      prefixTokens: 10_000,
      requests: 20,
      hours: 0.5,
      minimumTokens: 2048,
      prices: FLASH,
    });
    expect(verdict.withCache).toBeCloseTo(0.014, 10);
    expect(verdict.without).toBeCloseTo(0.06, 10);
    expect(verdict.pays).toBe(true);
  });

  it('a single request never pays: the cache is made at the input price the request would pay', () => {
    const verdict = explicitCachePays({
      prefixTokens: 10_000,
      requests: 1,
      hours: 0.05,
      minimumTokens: 2048,
      prices: FLASH,
    });
    // 0.003 + 0.0003 + 0.0005 = 0.0038 against 0.003.
    expect(verdict.withCache).toBeCloseTo(0.0038, 10);
    expect(verdict.pays).toBe(false);
  });

  it('storage decides: 2 requests pay for 2 minutes held, not for 2 hours', () => {
    const base = { prefixTokens: 10_000, requests: 2, minimumTokens: 2048, prices: FLASH };
    // Without: 2 × 0.003 = 0.006. Two minutes: 0.003 + 0.0006 + 0.01 × 1 / 30 = 0.00393…
    expect(explicitCachePays({ ...base, hours: 2 / 60 }).pays).toBe(true);
    // Two hours: 0.003 + 0.0006 + 0.02 = 0.0236.
    expect(explicitCachePays({ ...base, hours: 2 }).withCache).toBeCloseTo(0.0236, 10);
    expect(explicitCachePays({ ...base, hours: 2 }).pays).toBe(false);
  });

  it('below the minimum no cache is possible, however many requests', () => {
    const verdict = explicitCachePays({
      prefixTokens: 2047,
      requests: 1000,
      hours: 0.1,
      minimumTokens: 2048,
      prices: FLASH,
    });
    expect(verdict.pays).toBe(false);
    expect(verdict.why).toContain('below the minimum of 2048');
  });
});

describe('holdSeconds', () => {
  it('the requests shared by the concurrency at 15 s each, within 2 minutes and an hour', () => {
    expect(holdSeconds(40, 4)).toBe(150);
    expect(holdSeconds(3, 4)).toBe(MIN_TTL_SECONDS);
    expect(holdSeconds(10_000, 1)).toBe(MAX_TTL_SECONDS);
  });
});

const system = (content: string): ChatMessage => ({ role: 'system', content });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('sharedLeadingMessages', () => {
  it('holds every message before the item’s own (last) user turn, a prefill after it included', () => {
    expect(sharedLeadingMessages([system('S'), user('shot'), assistant('A'), user('item')])).toBe(3);
    expect(sharedLeadingMessages([system('S'), user('item'), assistant('Answer: ')])).toBe(1);
  });

  it('nothing for a single user message (a NIAH prompt: haystack and question in one turn)', () => {
    expect(sharedLeadingMessages([user('haystack … question')])).toBe(0);
  });

  it('nothing when a system message follows the last user turn: a request naming a cache takes no system instruction', () => {
    expect(sharedLeadingMessages([user('shot'), assistant('A'), user('item'), system('late')])).toBe(0);
    // Before it, a system message is held with the others (sent as the system instruction either way).
    expect(sharedLeadingMessages([user('shot'), assistant('A'), system('S'), user('item')])).toBe(3);
  });
});

describe('leadingGroups', () => {
  it('groups conversations by identical leading whole messages, never by a part of one', () => {
    const shots = [system('S'), user('shot'), assistant('A')];
    const items = [
      [...shots, user('one')],
      [...shots, user('two')],
      [system('S'), user('shot'), assistant('B'), user('three')],
      [user('shot A one')],
    ];
    const groups = leadingGroups(items, (item) => item);
    expect(groups.map((group) => group.items.length)).toEqual([2, 1]);
    expect(groups[0]!.prefix).toEqual(shots);
  });
});
