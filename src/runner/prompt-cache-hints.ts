import type { ChatMessage, PromptCacheHint } from '../core/chat-model.js';
import { conversationOf, type PrefixOrdered } from './prefix-order.js';
import { messagesDigest } from './response-cache-key.js';

/**
 * The shortest shared prefix worth a cut, in characters: the least text the smallest minimum any
 * provider caches (1,024 tokens: Anthropic's Sonnet and Opus, OpenAI, Bedrock's Claude) can be — a
 * token is about a character of Chinese, four of English. A prefix below a provider's own minimum
 * is marked for nothing: the provider does not cache it and charges nothing for the mark.
 */
export const MIN_CACHED_PREFIX_CHARS = 1024;

/** How far back from where two prompts part a breakpoint looks for a line break, a space or a CJK stop. */
export const SNAP_BACK_CHARS = 256;

/** A provider marks at most this many breakpoints in a request (Anthropic's limit of four `cache_control`). */
export const MAX_BREAKPOINTS = 4;

/**
 * At most this many cuts (content-block boundaries) in a request: Anthropic looks for a cached
 * prefix at the 20 block boundaries before a breakpoint, no further.
 */
export const MAX_CUTS = 16;

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

/** A conversation's breakpoints (marked) and cuts (every block boundary, the breakpoints included). */
export interface CachePoints {
  breakpoints: Array<{ message: number; offset: number }>;
  cuts: Array<{ message: number; offset: number }>;
}

/**
 * The cache points of one conversation. Its ancestors (`ancestors`) are the ends of every prefix
 * it shares with another conversation of the walk: the branch points of the prefix tree on its
 * path. Every conversation that shares a prefix is cut at the same ancestors, so the blocks a
 * provider caches (Anthropic's and Bedrock's, by block) are the same blocks in each. Breakpoints:
 * where it parts from the one before it and the one after it (`neighbours`: what it reads and what
 * it writes for the next), then the deepest other ancestors, then the ends of whole messages inside
 * its longest shared prefix (a system prompt, few-shot turns); at least the floor, distinct, at
 * most `MAX_BREAKPOINTS`. Cuts: the breakpoints and the other ancestors, at most `MAX_CUTS`.
 * Ancestors within `MIN_CUT_GAP_CHARS` of a shallower one are that one (`clusters`).
 */
export function cachePointsOf(
  messages: readonly ChatMessage[],
  neighbours: ReadonlyArray<Link | undefined>,
  ancestors: readonly Link[] = [],
): CachePoints {
  const { kept, representative } = clusters([
    ...neighbours.flatMap((link) => (link ? [link] : [])),
    ...ancestors,
  ]);
  const near = neighbours.flatMap((link) => (link ? [representative(link)] : []));
  const deepestFirst = [...kept].reverse();
  const longest = [...near, ...deepestFirst].reduce<Link | undefined>(
    (best, link) => (best && best.chars >= link.chars ? best : link),
    undefined,
  );
  const wholeMessages: PrefixEnd[] = [];
  if (longest)
    for (let index = 0; index < longest.end.message; index++) wholeMessages.push(endOf(messages, index)!);
  const ends = [...near.map((link) => link.end), ...deepestFirst.map((link) => link.end), ...wholeMessages];
  const pick = (most: number) => {
    const chosen = new Map<number, { message: number; offset: number }>();
    for (const end of ends) {
      const chars = charsUpTo(messages, end);
      if (end.offset === 0 || chars < MIN_CACHED_PREFIX_CHARS || chosen.has(chars)) continue;
      if (chosen.size === most) break;
      chosen.set(chars, { message: end.message, offset: end.offset });
    }
    return [...chosen.entries()].sort(([left], [right]) => left - right).map(([, end]) => end);
  };
  return { breakpoints: pick(MAX_BREAKPOINTS), cuts: pick(MAX_CUTS) };
}

/**
 * Ancestors closer than this to a shallower one count as that one: prompts whose needles start
 * alike part a few characters after those whose needles do not, and one cache point serves them all.
 */
export const MIN_CUT_GAP_CHARS = 512;

/**
 * The cache points among `links` (ascending, each at least `MIN_CUT_GAP_CHARS` past the one before)
 * and the one each link counts as. A function of the lengths alone, so two conversations with the
 * same ancestors up to a point keep the same points up to it.
 */
function clusters(links: readonly Link[]): { kept: Link[]; representative: (link: Link) => Link } {
  const ascending = [...links].sort((left, right) => left.chars - right.chars);
  const kept: Link[] = [];
  const of = new Map<number, Link>();
  for (const link of ascending) {
    const last = kept.at(-1);
    if (!last || link.chars - last.chars >= MIN_CUT_GAP_CHARS) kept.push(link);
    of.set(link.chars, kept.at(-1)!);
  }
  return { kept, representative: (link) => of.get(link.chars) ?? link };
}

/** The breakpoints alone (`cachePointsOf`), from the neighbours' links. */
export function breakpointsOf(
  messages: readonly ChatMessage[],
  links: ReadonlyArray<Link | undefined>,
): Array<{ message: number; offset: number }> {
  return cachePointsOf(messages, links).breakpoints;
}

/** Where two neighbours in the walk part, snapped back, and its length in characters. */
export interface Link {
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
 * For each link of the walk, the nearest link on one side (`step` -1: before, 1: after) that is
 * strictly shorter, with no missing link (a pair sharing less than the floor) between; -1: none.
 * Followed from a conversation's own link, these give the distinct lengths it shares with the
 * conversations on that side: its ancestors in the prefix tree. One pass with a stack.
 */
function shorterLinks(links: ReadonlyArray<Link | undefined>, step: 1 | -1): number[] {
  const found = links.map(() => -1);
  let stack: number[] = [];
  for (let turn = 0; turn < links.length; turn++) {
    const index = step === 1 ? links.length - 1 - turn : turn;
    const link = links[index];
    if (!link) {
      stack = [];
      continue;
    }
    while (stack.length > 0 && links[stack.at(-1)!]!.chars >= link.chars) stack.pop();
    found[index] = stack.at(-1) ?? -1;
    stack.push(index);
  }
  return found;
}

/** The links a conversation's ancestors are, from its own links on both sides outwards. */
function ancestorsOf(
  index: number,
  links: ReadonlyArray<Link | undefined>,
  before: readonly number[],
  after: readonly number[],
): Link[] {
  const found: Link[] = [];
  for (let link = index - 1; link >= 0 && links[link]; link = before[link]!) found.push(links[link]!);
  for (let link = index; link >= 0 && link < links.length && links[link]; link = after[link]!)
    found.push(links[link]!);
  return found;
}

/**
 * Each conversation's `PromptCacheHint`, from the prefix order (`prefixOrder`'s walk, where each
 * sits next to the one sharing its longest prefix): its breakpoints and cuts (`cachePointsOf`, from
 * its neighbours and its ancestors in the prefix tree), and the key
 * of its chain — the neighbours in the walk linked one to the next by a shared prefix of at least
 * the floor: the digest of the text they all share (in sorted order, the shortest of their links),
 * so that every request of a haystack or a few-shot block carries one key (OpenAI routes requests
 * by prefix and key). A conversation sharing nothing long enough with its neighbours gets none.
 * One prefix comparison per neighbour pair, one digest per chain, and a conversation's ancestors
 * found by following shorter links (as many steps as the tree is deep).
 */
export function promptCacheHints<Item extends PrefixOrdered>(
  walk: readonly Item[],
): Map<Item, PromptCacheHint> {
  const conversations = walk.map(conversationOf);
  const links: Array<Link | undefined> = [];
  for (let index = 0; index + 1 < conversations.length; index++)
    links.push(linkOf(conversations[index]!, conversations[index + 1]!));
  const before = shorterLinks(links, -1);
  const after = shorterLinks(links, 1);
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
          ...cachePointsOf(
            conversations[index]!,
            [links[index - 1], links[index]],
            ancestorsOf(index, links, before, after),
          ),
          key,
        });
    }
    start = end + 1;
  }
  return hints;
}
