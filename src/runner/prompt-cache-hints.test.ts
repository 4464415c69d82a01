import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';
import { prefixOrder } from './prefix-order.js';
import {
  breakpointsOf,
  commonPrefixLength,
  MIN_CACHED_PREFIX_CHARS,
  promptCacheHints,
  sharedPrefixEnd,
  snapBack,
} from './prompt-cache-hints.js';
import { messagesDigest } from './response-cache-key.js';
import { sampleRequest } from './sample-request.js';

/** Line `n` of the haystack: exactly 50 characters, its line break included. */
function line(n: number): string {
  return `haystack line ${String(n).padStart(4, '0')} with some words to fill it up.\n`;
}
/** 100 lines: 5,000 characters. */
const HAYSTACK = Array.from({ length: 100 }, (_, n) => line(n)).join('');
const NEEDLE = 'NEEDLE: the code is 42.\n';

/** The haystack with the needle at character `at`, and the question. */
function withNeedle(id: string, at: number) {
  return { id, prompt: `${HAYSTACK.slice(0, at)}${NEEDLE}${HAYSTACK.slice(at)}\nWhat is the code?` };
}

describe('the shared prefixes of neighbours in the walk', () => {
  it('counts shared characters past chunk edges', () => {
    expect(HAYSTACK.length).toBe(5000);
    const long = 'a'.repeat(70_000);
    expect(commonPrefixLength(long, `${long.slice(0, 69_999)}b`)).toBe(69_999);
    expect(commonPrefixLength(long, `${long.slice(0, 4097)}b`)).toBe(4097);
    expect(commonPrefixLength('abc', 'abd')).toBe(2);
    expect(commonPrefixLength('abc', 'abc')).toBe(3);
    expect(commonPrefixLength('', 'abc')).toBe(0);
  });

  it('ends at the first message that differs, at a message end where roles part or nothing is shared', () => {
    const system: ChatMessage = { role: 'system', content: 'rules' };
    expect(
      sharedPrefixEnd(
        [system, { role: 'user', content: 'abc x' }],
        [system, { role: 'user', content: 'abc y' }],
      ),
    ).toEqual({ message: 1, offset: 4, whole: false });
    expect(
      sharedPrefixEnd(
        [system, { role: 'user', content: 'abc' }],
        [system, { role: 'assistant', content: 'abc' }],
      ),
    ).toEqual({ message: 0, offset: 5, whole: true });
    expect(
      sharedPrefixEnd([system, { role: 'user', content: 'x' }], [system, { role: 'user', content: 'y' }]),
    ).toEqual({ message: 0, offset: 5, whole: true });
    expect(
      sharedPrefixEnd([{ role: 'user', content: 'x' }], [{ role: 'user', content: 'y' }]),
    ).toBeUndefined();
    // One conversation the start of the other: its last message, whole.
    expect(sharedPrefixEnd([system], [system, { role: 'user', content: 'y' }])).toEqual({
      message: 0,
      offset: 5,
      whole: true,
    });
  });

  it('snaps back to after a line break, else a space, else a CJK stop, within 256 characters', () => {
    const user = (content: string): ChatMessage[] => [{ role: 'user', content }];
    // Offset 4,525 is inside line 90 ("haystack line 0090 with some words…"): the line break before it
    // is 25 characters back, the space 2.
    expect(snapBack(user(HAYSTACK), { message: 0, offset: 4525, whole: false })).toEqual({
      message: 0,
      offset: 4500,
      whole: false,
    });
    expect(snapBack(user('aaaa\nbb cc'), { message: 0, offset: 9, whole: false })?.offset).toBe(5);
    expect(snapBack(user('aaaa bbbb cccc'), { message: 0, offset: 12, whole: false })?.offset).toBe(10);
    expect(
      snapBack(user(`${'病'.repeat(10)}。${'病'.repeat(10)}`), { message: 0, offset: 15, whole: false })
        ?.offset,
    ).toBe(11);
    // No break within reach: no breakpoint rather than one inside a word.
    expect(snapBack(user(`a ${'x'.repeat(300)}`), { message: 0, offset: 290, whole: false })).toBeUndefined();
    // A message's end stays.
    expect(snapBack(user('abc'), { message: 0, offset: 3, whole: true })).toEqual({
      message: 0,
      offset: 3,
      whole: true,
    });
  });
});

describe('promptCacheHints', () => {
  it('marks where three NIAH prompts part: needles at 1,000, 4,500 and 4,750 characters', () => {
    const prompts = [withNeedle('deep', 4750), withNeedle('shallow', 1000), withNeedle('middle', 4500)];
    const walk = prefixOrder(prompts);
    // At each needle the one with it sorts first ('N' < 'h').
    expect(walk.map((item) => item.id)).toEqual(['shallow', 'middle', 'deep']);
    const hints = promptCacheHints(walk);
    // shallow shares 1,000 characters with middle: below the floor, no hint.
    expect(hints.has(walk[0]!)).toBe(false);
    const key = messagesDigest([{ role: 'user', content: HAYSTACK.slice(0, 4500) }]);
    // middle and deep share the haystack's first 4,500 characters (90 lines, ending in a line break).
    expect(hints.get(walk[1]!)).toEqual({ breakpoints: [{ message: 0, offset: 4500 }], key });
    expect(hints.get(walk[2]!)).toEqual({ breakpoints: [{ message: 0, offset: 4500 }], key });
  });

  it('cuts a prompt at both of its neighbours, snapped back to a line break', () => {
    // b parts from a at 4,525 (inside line 90: back to its start, 4,500) and from c at 4,900.
    const prompts = [withNeedle('a', 4525), withNeedle('b', 4900), { id: 'c', prompt: `${HAYSTACK}\nQ?` }];
    const walk = prefixOrder(prompts);
    expect(walk.map((item) => item.id)).toEqual(['a', 'b', 'c']);
    const hints = promptCacheHints(walk);
    expect(hints.get(walk[0]!)?.breakpoints).toEqual([{ message: 0, offset: 4500 }]);
    expect(hints.get(walk[1]!)?.breakpoints).toEqual([
      { message: 0, offset: 4500 },
      { message: 0, offset: 4900 },
    ]);
    expect(hints.get(walk[2]!)?.breakpoints).toEqual([{ message: 0, offset: 4900 }]);
    // One key for the chain: the text all three share.
    const key = messagesDigest([{ role: 'user', content: HAYSTACK.slice(0, 4500) }]);
    expect(walk.map((item) => hints.get(item)?.key)).toEqual([key, key, key]);
  });

  it('gives each chain of neighbours its own key', () => {
    const other = HAYSTACK.replaceAll('haystack', 'HAYSTACK');
    const walk = prefixOrder([
      withNeedle('a', 4500),
      withNeedle('b', 4750),
      { id: 'c', prompt: `${other}\nQ1?` },
      { id: 'd', prompt: `${other}\nQ2?` },
    ]);
    expect(walk.map((item) => item.id)).toEqual(['c', 'd', 'a', 'b']);
    const hints = promptCacheHints(walk);
    const keyOf = (content: string) => messagesDigest([{ role: 'user', content }]);
    expect(walk.map((item) => hints.get(item)?.key)).toEqual([
      keyOf(`${other}\n`),
      keyOf(`${other}\n`),
      keyOf(HAYSTACK.slice(0, 4500)),
      keyOf(HAYSTACK.slice(0, 4500)),
    ]);
  });

  it('marks a shared system prompt and few-shot turns at their ends, at most four, ascending', () => {
    const shots: ChatMessage[] = Array.from({ length: 6 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: `${'shot '.repeat(1000)}${index}\n`,
    }));
    const ask = (id: string, question: string) => ({
      id,
      prompt: question,
      messages: [
        { role: 'system' as const, content: 'rules\n'.repeat(1000) },
        ...shots,
        { role: 'user' as const, content: question },
      ],
    });
    const walk = prefixOrder([
      ask('x', 'first question'),
      ask('y', 'second question'),
      ask('z', 'third question'),
    ]);
    const hints = promptCacheHints(walk);
    // The neighbours share up to the end of the last shot (message 6); then the earliest whole
    // messages (0, 1, 2) fill the four.
    const expected = [0, 1, 2, 6].map((message) => ({
      message,
      offset: message === 0 ? 6000 : 5002,
    }));
    for (const item of walk) expect(hints.get(item)?.breakpoints).toEqual(expected);
    // The key: the system prompt and the shots, which all three share.
    expect(hints.get(walk[0]!)?.key).toBe(messagesDigest(walk[0]!.messages.slice(0, 7)));
    expect(new Set(walk.map((item) => hints.get(item)?.key)).size).toBe(1);
  });

  it('drops a shared prefix below the floor', () => {
    const short = 'x '.repeat(MIN_CACHED_PREFIX_CHARS / 2 - 10);
    const walk = prefixOrder([
      { id: 'a', prompt: `${short}alpha` },
      { id: 'b', prompt: `${short}beta` },
    ]);
    expect(promptCacheHints(walk).size).toBe(0);
    expect(breakpointsOf([{ role: 'user', content: short }], [undefined, undefined])).toEqual([]);
    // An empty message's end is no breakpoint of its own.
    const empty: ChatMessage[] = [
      { role: 'system', content: 'x'.repeat(5000) },
      { role: 'user', content: '' },
    ];
    expect(
      breakpointsOf(empty, [{ end: { message: 1, offset: 0, whole: true }, chars: 5000 }, undefined]),
    ).toEqual([{ message: 0, offset: 5000 }]);
  });

  it('hints the conversation the runner sends: the one the walk sorted', async () => {
    const sample = {
      id: 's',
      prompt: 'q',
      messages: [
        { role: 'system' as const, content: 'rules' },
        { role: 'user' as const, content: 'q' },
        { role: 'assistant' as const, content: 'The answer is' },
      ],
    } as Sample;
    const request = await sampleRequest(
      sample,
      {
        provider: 'p',
        modelId: 'm',
        endpoint: 'e',
        generate: async () => ({ text: '', usage: undefined, finishReason: undefined }),
      },
      {
        parameters: { temperature: 0, maxOutputTokens: 1 },
      } as never,
    );
    expect(request.messages).toBe(sample.messages);
  });
});
