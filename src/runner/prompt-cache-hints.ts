import type { ChatMessage, PromptCacheHint } from '../core/chat-model.js';
import { conversationOf, type PrefixOrdered } from './prefix-order.js';
import { messagesDigest } from './response-cache-key.js';

/**
 * The shortest shared prefix worth a breakpoint, in characters: the smallest minimum any provider
 * caches (1,024 tokens: Anthropic's Sonnet and Opus, OpenAI, Bedrock's Claude) at about four
 * characters a token of English. Text with fewer characters a token (Chinese) is longer in tokens
 * than this, never shorter; a prefix below a provider's own minimum is sent unmarked.
 */
export const MIN_CACHED_PREFIX_CHARS = 4096;

/** How far back from where two prompts part a breakpoint looks for a line break, a space or a CJK stop. */
export const SNAP_BACK_CHARS = 256;

/** A provider marks at most this many breakpoints in a request (Anthropic's limit of four `cache_control`). */
export const MAX_BREAKPOINTS = 4;

/** The end of a shared prefix: `offset` characters into message `message`; `whole`: the message's end in both. */
export interface PrefixEnd {
  message: number;
  offset: number;
  whole: boolean;
}

/**
 * How many leading characters two strings share, compared in native chunks (a slice of a flat
 * string is a view, and `===` on two compares memory): O(shared) with few JavaScript steps, for
 * prompts of hundreds of thousands of characters.
 */
export function commonPrefixLength(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  let at = 0;
  for (const step of [65_536, 4096, 256, 16])
    while (at + step <= length && left.slice(at, at + step) === right.slice(at, at + step)) at += step;
  while (at < length && left.charCodeAt(at) === right.charCodeAt(at)) at++;
  return at;
}

/** The end of message `index` (undefined before the first message). */
function endOf(messages: readonly ChatMessage[], index: number): PrefixEnd | undefined {
  if (index < 0) return undefined;
  return { message: index, offset: (messages[index] as ChatMessage).content.length, whole: true };
}

/** Where the text two conversations share as sent (roles and contents, in order) ends; undefined: nothing. */
export function sharedPrefixEnd(
  left: readonly ChatMessage[],
  right: readonly ChatMessage[],
): PrefixEnd | undefined {
  const shared = Math.min(left.length, right.length);
  for (let index = 0; index < shared; index++) {
    const a = left[index] as ChatMessage;
    const b = right[index] as ChatMessage;
    if (a.role !== b.role) return endOf(left, index - 1);
    if (a.content === b.content) continue;
    const offset = commonPrefixLength(a.content, b.content);
    return offset === 0 ? endOf(left, index - 1) : { message: index, offset, whole: false };
  }
  return endOf(left, shared - 1);
}

const LINE_BREAK = /\n/g;
const SPACE = /[ \t\r\f\v\u00a0\u3000]/g;
const CJK_STOP = /[。！？；，、：）」』】]/g;

/** Just after the last match of `pattern` in `text`, or -1. */
function afterLast(text: string, pattern: RegExp): number {
  let found = -1;
  for (const match of text.matchAll(pattern)) found = match.index + match[0].length;
  return found;
}

/**
 * A breakpoint inside a message moved back to just after a line break, else a space, else a CJK
 * stop, within `SNAP_BACK_CHARS`, so that the text on either side keeps its own tokens; none near:
 * no breakpoint. A message's end stays where it is.
 */
export function snapBack(messages: readonly ChatMessage[], end: PrefixEnd): PrefixEnd | undefined {
  if (end.whole) return end;
  const content = (messages[end.message] as ChatMessage).content;
  const from = Math.max(0, end.offset - SNAP_BACK_CHARS);
  const window = content.slice(from, end.offset);
  for (const pattern of [LINE_BREAK, SPACE, CJK_STOP]) {
    const found = afterLast(window, pattern);
    if (found < 0) continue;
    return { message: end.message, offset: from + found, whole: false };
  }
  return undefined;
}

/** Characters of the conversation up to `end`. */
function charsUpTo(messages: readonly ChatMessage[], end: PrefixEnd): number {
  let chars = end.offset;
  for (let index = 0; index < end.message; index++) chars += (messages[index] as ChatMessage).content.length;
  return chars;
}

/**
 * The breakpoints of one conversation, from where it parts from the one before it and the one
 * after it in the walk (`links`, snapped back, long enough): those ends, then the ends of whole
 * messages inside the longer of them (a shared system prompt, few-shot turns), earliest first;
 * distinct, ascending, at most `MAX_BREAKPOINTS`.
 */
export function breakpointsOf(
  messages: readonly ChatMessage[],
  links: ReadonlyArray<Link | undefined>,
): Array<{ message: number; offset: number }> {
  const ends = links.flatMap((link) => (link ? [link] : []));
  const longest = ends.reduce<Link | undefined>(
    (best, link) => (best && best.chars >= link.chars ? best : link),
    undefined,
  );
  const wholeMessages: PrefixEnd[] = [];
  if (longest)
    for (let index = 0; index < longest.end.message; index++) wholeMessages.push(endOf(messages, index)!);
  const chosen = new Map<number, { message: number; offset: number }>();
  for (const end of [...ends.map((link) => link.end), ...wholeMessages]) {
    const chars = charsUpTo(messages, end);
    if (end.offset === 0 || chars < MIN_CACHED_PREFIX_CHARS || chosen.has(chars)) continue;
    if (chosen.size === MAX_BREAKPOINTS) break;
    chosen.set(chars, { message: end.message, offset: end.offset });
  }
  return [...chosen.entries()].sort(([left], [right]) => left - right).map(([, end]) => end);
}

/** Where two neighbours in the walk part, snapped back, and its length in characters. */
interface Link {
  end: PrefixEnd;
  chars: number;
}

/** The shared prefix of two neighbours as a breakpoint: snapped back, and at least the floor; else undefined. */
function linkOf(left: readonly ChatMessage[], right: readonly ChatMessage[]): Link | undefined {
  const shared = sharedPrefixEnd(left, right);
  const end = shared ? snapBack(left, shared) : undefined;
  if (!end) return undefined;
  const chars = charsUpTo(left, end);
  return chars >= MIN_CACHED_PREFIX_CHARS ? { end, chars } : undefined;
}

/** The conversation cut at a breakpoint. */
function prefixUpTo(
  messages: readonly ChatMessage[],
  end: { message: number; offset: number },
): ChatMessage[] {
  const last = messages[end.message] as ChatMessage;
  return [...messages.slice(0, end.message), { role: last.role, content: last.content.slice(0, end.offset) }];
}

/**
 * Each conversation's `PromptCacheHint`, from the prefix order (`prefixOrder`'s walk, where each
 * sits next to the one sharing its longest prefix): its breakpoints (`breakpointsOf`), and the key
 * of its chain — the neighbours in the walk linked one to the next by a shared prefix of at least
 * the floor: the digest of the text they all share (in sorted order, the shortest of their links),
 * so that every request of a haystack or a few-shot block carries one key (OpenAI routes requests
 * by prefix and key). A conversation sharing nothing long enough with its neighbours gets none.
 * One prefix comparison per neighbour pair, one digest per chain.
 */
export function promptCacheHints<Item extends PrefixOrdered>(
  walk: readonly Item[],
): Map<Item, PromptCacheHint> {
  const conversations = walk.map(conversationOf);
  const links: Array<Link | undefined> = [];
  for (let index = 0; index + 1 < conversations.length; index++)
    links.push(linkOf(conversations[index]!, conversations[index + 1]!));
  const hints = new Map<Item, PromptCacheHint>();
  let start = 0;
  while (start < walk.length) {
    let end = start;
    let shortest: Link | undefined;
    for (let link = links[end]; link; link = links[++end])
      if (!shortest || link.chars < shortest.chars) shortest = link;
    if (shortest) {
      const key = messagesDigest(prefixUpTo(conversations[start]!, shortest.end));
      for (let index = start; index <= end; index++)
        hints.set(walk[index]!, {
          breakpoints: breakpointsOf(conversations[index]!, [links[index - 1], links[index]]),
          key,
        });
    }
    start = end + 1;
  }
  return hints;
}
