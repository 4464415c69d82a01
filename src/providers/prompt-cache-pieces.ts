import type { PromptCacheHint } from '../core/chat-model.js';

/** A provider marks at most this many cache breakpoints in one request (Anthropic's and Bedrock's four). */
const MOST_MARKS = 4;

/** A piece of a message's text; `cached`: it ends at a breakpoint (the provider caches up to its end). */
export interface TextPiece {
  text: string;
  cached: boolean;
}

/**
 * Cuts messages at a `PromptCacheHint`'s breakpoints and cuts, for a provider that marks them in the text
 * (Anthropic's `cache_control`, Bedrock's `cachePoint`): each message's content as pieces that
 * join to it exactly. At most four marks in all; no empty piece.
 */
export class PromptCachePieces {
  private marks = 0;

  constructor(private readonly hint: PromptCacheHint | undefined) {}

  /** Whether message `index` has a breakpoint (else it is sent as it always is). */
  cuts(index: number): boolean {
    return this.points().some((point) => point.message === index);
  }

  /** Where messages are cut: the breakpoints and the other cuts. */
  private points(): ReadonlyArray<{ message: number; offset: number }> {
    return [...(this.hint?.breakpoints ?? []), ...(this.hint?.cuts ?? [])];
  }

  /** Message `index`'s content in pieces, a piece ending at each of its breakpoints. */
  pieces(index: number, content: string): TextPiece[] {
    const inMessage = (points: ReadonlyArray<{ message: number; offset: number }>) =>
      points
        .filter((point) => point.message === index && point.offset > 0 && point.offset <= content.length)
        .map((point) => point.offset);
    const marked = new Set(inMessage(this.hint?.breakpoints ?? []));
    const offsets = [...new Set(inMessage(this.points()))].sort((left, right) => left - right);
    const pieces: TextPiece[] = [];
    let from = 0;
    for (const offset of offsets) {
      const cached = marked.has(offset) && this.marks < MOST_MARKS;
      // A message's end is a block's end already: a cut there adds nothing unless it is marked.
      if (offset <= from || (offset === content.length && !cached)) continue;
      pieces.push({ text: content.slice(from, offset), cached });
      if (cached) this.marks++;
      from = offset;
    }
    if (from < content.length) pieces.push({ text: content.slice(from), cached: false });
    return pieces;
  }
}
