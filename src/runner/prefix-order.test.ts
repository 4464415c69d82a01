import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../core/chat-model.js';
import { type PrefixOrdered, PrefixRuns, prefixOrder } from './prefix-order.js';

const prompts = (...texts: string[]) => texts.map((prompt, index) => ({ id: `s${index}`, prompt }));
const ids = (items: PrefixOrdered[]) => items.map((item) => item.id);

/** The text a conversation sends, with separators below every character it may hold. */
function sent(item: PrefixOrdered): string {
  const messages = item.messages ?? [{ role: 'user', content: item.prompt }];
  return messages.map((message) => `${message.role}\u0000${message.content}\u0000`).join('');
}

function sharedPrefix(left: string, right: string): number {
  let length = 0;
  while (length < left.length && length < right.length && left[length] === right[length]) length++;
  return length;
}

/** What consecutive prompts share, summed: what a one-prompt cache would serve. */
const sharedInTurn = (items: PrefixOrdered[]) =>
  items
    .slice(1)
    .reduce((sum, item, index) => sum + sharedPrefix(sent(items[index] as PrefixOrdered), sent(item)), 0);

describe('prefixOrder', () => {
  it('puts prompts that share a prefix together, the longest shared nested innermost', () => {
    // A haystack "HAY…" with needles at two depths, and an unrelated prompt.
    const samples = prompts('HAYSTACK-b', 'other', 'HAY-a-STACK', 'HAYSTACK-a', 'HAY-b-STACK', 'HAYSTACK');
    expect(ids(prefixOrder(samples))).toEqual(['s2', 's4', 's5', 's3', 's0', 's1']);
  });

  it('orders conversations message by message: role, then content, a shorter one first', () => {
    const fewShot: ChatMessage[] = [
      { role: 'system', content: 'You answer.' },
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
    ];
    const samples: PrefixOrdered[] = [
      { id: 'b', prompt: 'Q2', messages: [...fewShot, { role: 'user', content: 'Q2' }] },
      { id: 'plain', prompt: 'Q2' },
      { id: 'a', prompt: 'Q3', messages: [...fewShot, { role: 'user', content: 'Q3' }] },
      { id: 'short', prompt: '', messages: fewShot },
      { id: 'c', prompt: 'Q2', messages: [...fewShot, { role: 'user', content: 'Q2' }] },
    ];
    // Equal conversations (b, c) go by id; the few-shot prefix alone comes before its extensions.
    expect(ids(prefixOrder(samples))).toEqual(['short', 'b', 'c', 'a', 'plain']);
  });

  it('leaves its input as it was', () => {
    const samples = prompts('b', 'a');
    prefixOrder(samples);
    expect(ids(samples)).toEqual(['s0', 's1']);
  });
});

describe('prefixOrder on random prompts', () => {
  const message = fc.record({
    role: fc.constantFrom<ChatMessage['role']>('system', 'user', 'assistant'),
    content: fc.string({ unit: fc.constantFrom('a', 'b', 'c', '中'), maxLength: 8 }),
  });
  const sample = fc.record({
    prompt: fc.string({ unit: fc.constantFrom('a', 'b', 'c', '中'), maxLength: 10 }),
    messages: fc.option(fc.array(message, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  });
  const samples = fc.array(sample, { maxLength: 30 }).map((items) =>
    items.map(({ prompt, messages }, index) => ({
      id: `s${index}`,
      prompt,
      ...(messages ? { messages } : {}),
    })),
  );

  it('is a permutation, the same whatever order the samples come in', () => {
    fc.assert(
      fc.property(samples, fc.infiniteStream(fc.nat()), (items, draws) => {
        const ordered = prefixOrder(items);
        expect([...ids(ordered)].sort()).toEqual([...ids(items)].sort());
        const shuffled = [...items];
        for (let index = shuffled.length - 1; index > 0; index--) {
          const other = (draws.next().value as number) % (index + 1);
          const swapped = shuffled[index] as (typeof shuffled)[number];
          shuffled[index] = shuffled[other] as typeof swapped;
          shuffled[other] = swapped;
        }
        expect(ids(prefixOrder(shuffled))).toEqual(ids(ordered));
      }),
    );
  });

  it('sets each prompt next to one that shares its longest prefix with it', () => {
    fc.assert(
      fc.property(samples, (items) => {
        const ordered = prefixOrder(items).map(sent);
        ordered.forEach((text, index) => {
          const longest = Math.max(
            0,
            ...ordered.filter((_, other) => other !== index).map((other) => sharedPrefix(text, other)),
          );
          const neighbours = [ordered[index - 1], ordered[index + 1]].filter((other) => other !== undefined);
          expect(Math.max(0, ...neighbours.map((other) => sharedPrefix(text, other)))).toBe(longest);
        });
      }),
    );
  });

  it('shares at least as much between consecutive prompts as the order given', () => {
    fc.assert(
      fc.property(samples, (items) => {
        expect(sharedInTurn(prefixOrder(items))).toBeGreaterThanOrEqual(sharedInTurn(items));
      }),
    );
  });
});

/** Every sample `runs` hands out, slot after slot as `slots` says, until none is left. */
function drain<Item extends PrefixOrdered>(runs: PrefixRuns<Item>, slots: Iterable<number>) {
  const taken: Array<{ slot: number; item: Item }> = [];
  for (const slot of slots) {
    const item = runs.take(slot);
    if (!item) break;
    taken.push({ slot, item });
  }
  return taken;
}

function* chain(first: Iterable<number>, then: Iterable<number>) {
  yield* first;
  yield* then;
}

function* roundRobin(count: number) {
  for (let turn = 0; ; turn++) yield turn % count;
}

describe('PrefixRuns', () => {
  it('gives each slot its own contiguous run of the prefix order, then the tail of the longest left', () => {
    // Prefix order: a1 a2 a3 b1 b2 c1 c2 (ids s0…s6 given shuffled).
    const samples = prompts('b1', 'a1', 'c2', 'a3', 'b2', 'a2', 'c1');
    const runs = new PrefixRuns(samples, 3);
    const prompt = (slot: number) => runs.take(slot)?.prompt;
    // Runs of 3, 2 and 2: a1 a2 a3 | b1 b2 | c1 c2.
    expect([prompt(0), prompt(1), prompt(2), prompt(2), prompt(2)]).toEqual(['a1', 'b1', 'c1', 'c2', 'a3']);
    expect(runs.left).toBe(2);
    expect([prompt(0), prompt(1), prompt(0)]).toEqual(['a2', 'b2', undefined]);
    expect(runs.left).toBe(0);
  });

  it('with one slot, hands out the prefix order', () => {
    const samples = prompts('b', 'a', 'ab', 'c');
    expect(drain(new PrefixRuns(samples, 1), roundRobin(1)).map(({ item }) => item.prompt)).toEqual([
      'a',
      'ab',
      'b',
      'c',
    ]);
  });
});

describe('PrefixRuns on random prompts and slots', () => {
  const texts = fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '中'), maxLength: 6 }), {
    maxLength: 40,
  });
  const slots = fc.array(fc.nat({ max: 9 }), { minLength: 1, maxLength: 200 });

  it('hands out every sample once, each slot its run in order until it steals', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 8 }), slots, (given, count, order) => {
        const samples = prompts(...given);
        const walk = ids(prefixOrder(samples));
        const taken = drain(new PrefixRuns(samples, count), chain(order, roundRobin(count)));
        expect(taken.map(({ item }) => item.id).sort()).toEqual([...walk].sort());
        // Runs of ⌈n/count⌉ then ⌊n/count⌋ samples; what a slot takes of its own run follows the
        // walk from the run's start, one sample after the next (others take from its tail only).
        const shorter = Math.floor(walk.length / count);
        const longer = walk.length % count;
        for (let slot = 0; slot < count; slot++) {
          const start = slot * shorter + Math.min(slot, longer);
          const end = start + shorter + (slot < longer ? 1 : 0);
          const own = taken
            .filter((take) => take.slot % count === slot)
            .map(({ item }) => walk.indexOf(item.id))
            .filter((at) => at >= start && at < end);
          expect(own).toEqual(own.map((_, index) => start + index));
        }
      }),
    );
  });
});
