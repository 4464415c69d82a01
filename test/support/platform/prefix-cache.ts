import { createHash } from 'node:crypto';
import type { Clock, TokenCounter } from './platform-basics.js';

/** Characters per link of the prefix hash chain: a match is found to within this many characters. */
const LINK = 32;

function chain(namespace: string, text: string): string[] {
  const hashes: string[] = [];
  let previous = createHash('sha1').update(namespace).digest('hex');
  for (let start = 0; start < text.length; start += LINK) {
    previous = createHash('sha1')
      .update(previous)
      .update(text.slice(start, start + LINK))
      .digest('hex');
    hashes.push(previous);
  }
  return hashes;
}

export interface AutomaticCacheRule {
  /** Prompts shorter than this are neither cached nor served from cache. */
  minimumTokens: number;
  /** Cached tokens come in steps of this many past the minimum (OpenAI: 128); 1 = any length. */
  increment: number;
  /** How long an unused prefix stays cached. */
  lifetimeMs: number;
}

/**
 * An automatic prefix cache (OpenAI's and Azure's prompt caching, Gemini's implicit caching): every
 * prompt at least `minimumTokens` long is cached; a later prompt in the same namespace (model and
 * prompt_cache_key) reads the longest prefix it shares with a live cached prompt, counted down to
 * `minimumTokens + k·increment` tokens. Use refreshes the lifetime.
 */
export class AutomaticPrefixCache {
  private readonly expiry = new Map<string, number>();

  constructor(
    private readonly rule: AutomaticCacheRule,
    private readonly clock: Clock,
    private readonly countTokens: TokenCounter,
  ) {}

  /** Cached tokens of `text` (its tokens `promptTokens`), and the text cached for later requests. */
  read(namespace: string, text: string, promptTokens: number): number {
    if (promptTokens < this.rule.minimumTokens) return 0;
    const now = this.clock.now();
    const hashes = chain(namespace, text);
    let matched = 0;
    while (matched < hashes.length && (this.expiry.get(hashes[matched]!) ?? -1) > now) matched++;
    const until = this.rule.lifetimeMs + now;
    for (const hash of hashes) this.expiry.set(hash, until);
    if (matched === 0) return 0;
    const shared = Math.min(promptTokens, this.countTokens(text.slice(0, matched * LINK)));
    if (shared < this.rule.minimumTokens) return 0;
    const { minimumTokens, increment } = this.rule;
    return minimumTokens + Math.floor((shared - minimumTokens) / increment) * increment;
  }
}

/** One block of an Anthropic prompt in order (tools, system, messages) and its breakpoint. */
export interface PromptBlock {
  text: string;
  /** Its cache_control's lifetime, when the block is a breakpoint. */
  breakpointTtlMs?: number;
}

export interface BreakpointUsage {
  totalTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Of cacheWriteTokens, those written with the 1-hour lifetime. */
  cacheWriteHourTokens: number;
}

const FIVE_MINUTES = 5 * 60_000;

/** Blocks before an explicit breakpoint the cache looks back through for a hit. */
export const LOOKBACK_BLOCKS = 20;

/**
 * Anthropic's prompt cache: a prefix is written only at a breakpoint (a block with cache_control)
 * whose prefix reaches the model's minimum; a request reads the longest written prefix ending at a
 * breakpoint or at one of the 20 blocks before one; a hit refreshes that entry's lifetime. Tokens
 * past the read prefix up to the last cacheable breakpoint are written.
 */
export class BreakpointCache {
  private readonly expiry = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly countTokens: TokenCounter,
  ) {}

  use(namespace: string, blocks: PromptBlock[], minimumTokens: number): BreakpointUsage {
    const now = this.clock.now();
    const hashes = blockChain(namespace, blocks);
    const prefixTokens = (end: number) =>
      this.countTokens(
        blocks
          .slice(0, end + 1)
          .map((block) => block.text)
          .join(''),
      );
    const breakpoints = blocks.flatMap((block, index) =>
      block.breakpointTtlMs !== undefined ? [index] : [],
    );
    const readEnd = this.longestHit(hashes, breakpoints, now);
    const cacheReadTokens = readEnd < 0 ? 0 : prefixTokens(readEnd);
    if (readEnd >= 0) this.refresh(hashes[readEnd]!, blocks, readEnd, breakpoints, now);
    // Each written breakpoint adds the tokens between the previous cached end and itself, at its lifetime.
    const written = { end: cacheReadTokens, total: 0, hour: 0 };
    for (const breakpoint of breakpoints) {
      const tokens = prefixTokens(breakpoint);
      if (breakpoint <= readEnd || tokens < minimumTokens) continue;
      const ttl = blocks[breakpoint]!.breakpointTtlMs!;
      this.expiry.set(hashes[breakpoint]!, now + ttl);
      written.total += tokens - written.end;
      if (ttl > FIVE_MINUTES) written.hour += tokens - written.end;
      written.end = tokens;
    }
    return {
      totalTokens: prefixTokens(blocks.length - 1),
      cacheReadTokens,
      cacheWriteTokens: written.total,
      cacheWriteHourTokens: written.hour,
    };
  }

  /** The last block of the longest live prefix found from any breakpoint's lookback, or -1. */
  private longestHit(hashes: string[], breakpoints: number[], now: number): number {
    let readEnd = -1;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_BLOCKS + 1); index--) {
        if ((this.expiry.get(hashes[index]!) ?? -1) > now) {
          readEnd = Math.max(readEnd, index);
          break;
        }
      }
    }
    return readEnd;
  }

  /** A hit lives on for the lifetime of the breakpoint it was read through. */
  private refresh(hash: string, blocks: PromptBlock[], readEnd: number, breakpoints: number[], now: number) {
    const through = breakpoints.find((breakpoint) => breakpoint >= readEnd)!;
    this.expiry.set(hash, Math.max(this.expiry.get(hash)!, now + blocks[through]!.breakpointTtlMs!));
  }
}

function blockChain(namespace: string, blocks: PromptBlock[]): string[] {
  let previous = createHash('sha1').update(namespace).digest('hex');
  return blocks.map((block) => {
    previous = createHash('sha1').update(previous).update('\u0000').update(block.text).digest('hex');
    return previous;
  });
}
