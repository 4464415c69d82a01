import type { PromptCacheHint } from '../core/chat-model.js';

/** A provider marks at most this many cache breakpoints in one request (Anthropic's and Bedrock's four). */
const MOST_MARKS = 4;

/** A piece of a message's text; `cached`: it ends at a breakpoint (the provider caches up to its end). */
export interface TextPiece {
  text: string;
  cached: boolean;
}

/**
 * Cuts messages at a `PromptCacheHint`'s breakpoints, for a provider that marks them in the text
 * (Anthropic's `cache_control`, Bedrock's `cachePoint`): each message's content as pieces that
 * join to it exactly. At most four marks in all; no empty piece.
 */
export class PromptCachePieces {
  private marks = 0;

  constructor(private readonly hint: PromptCacheHint | undefined) {}

  /** Whether message `index` has a breakpoint (else it is sent as it always is). */
  cuts(index: number): boolean {
    return this.hint?.breakpoints.some((breakpoint) => breakpoint.message === index) ?? false;
  }

  /** Message `index`'s content in pieces, a piece ending at each of its breakpoints. */
  pieces(index: number, content: string): TextPiece[] {
    const offsets = (this.hint?.breakpoints ?? [])
      .filter((breakpoint) => breakpoint.message === index)
      .map((breakpoint) => breakpoint.offset)
      .filter((offset) => offset > 0 && offset <= content.length)
      .sort((left, right) => left - right);
    const pieces: TextPiece[] = [];
    let from = 0;
    for (const offset of offsets) {
      if (offset <= from || this.marks >= MOST_MARKS) continue;
      pieces.push({ text: content.slice(from, offset), cached: true });
      this.marks++;
      from = offset;
    }
    if (from < content.length) pieces.push({ text: content.slice(from), cached: false });
    return pieces;
  }
}
