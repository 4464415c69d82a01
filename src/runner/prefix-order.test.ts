import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../core/chat-model.js';
import { type PrefixOrdered, prefixOrder } from './prefix-order.js';

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
  const samples = fc
    .array(sample, { maxLength: 30 })
    .map((items) =>
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
          [shuffled[index], shuffled[other]] = [
            shuffled[other] as PrefixOrdered,
            shuffled[index] as PrefixOrdered,
          ];
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
