import type { Tokenizer } from '../core/tokenizer.js';
import type { CodePointText } from './code-point-text.js';
import { type CountPath, countMany } from './count-many.js';
import type { PromptPart } from './prompt-parts.js';

/** Where the run of newlines ending at `newline` begins. */
function firstOfRun(text: string, newline: number): number {
  let position = newline;
  while (position > 0 && text[position - 1] === '\n') position--;
  return position;
}

/**
 * Cuts after a letter before anything but a letter, a mark or an apostrophe: where tokenizers with
 * `additiveAfterLetters` always end a piece, so a window's count is the sum of its pieces' counts.
 */
export const AFTER_LETTER = /(?<=\p{L})(?=[^\p{L}\p{M}'])/u;

function isSafeStart(character: string): boolean {
  return character !== '' && character !== '/' && !/\s/.test(character);
}

interface IndexOptions {
  corpus: CodePointText;
  tokenizer: Tokenizer;
  limit: number;
}

/**
 * Safe line starts, ascending, as code-point offsets, each with its anchor: the first position
 * its safety depends on (the non-space character before its newline run).
 */
function safeStarts(options: IndexOptions): { starts: Int32Array; anchors: Int32Array } {
  const { corpus, tokenizer } = options;
  const limit = Math.min(options.limit, corpus.length);
  const starts: number[] = [];
  const anchors: number[] = [];
  const blankLinesOk = tokenizer.additiveAfterBlankLines === true;
  if (corpus.length === corpus.text.length) {
    // BMP text: jump from newline to newline instead of visiting every character.
    const text = corpus.text;
    for (
      let newline = text.indexOf('\n', 1);
      newline !== -1 && newline + 1 < limit;
      newline = text.indexOf('\n', newline + 1)
    ) {
      const position = newline + 1;
      // Before the newline: a non-space, or (where the tokenizer allows) a run of newlines
      // that itself follows a non-space.
      const runStart = blankLinesOk ? firstOfRun(text, newline) : newline;
      if (runStart > 0 && !/\s/.test(text[runStart - 1]!) && isSafeStart(text[position]!)) {
        starts.push(position);
        anchors.push(runStart - 1);
      }
    }
  } else {
    for (let position = 2; position < limit; position++) {
      if (
        corpus.charAt(position - 1) === '\n' &&
        !/\s/.test(corpus.charAt(position - 2)) &&
        isSafeStart(corpus.charAt(position))
      ) {
        starts.push(position);
        anchors.push(position - 2);
      }
    }
  }
  return { starts: Int32Array.from(starts), anchors: Int32Array.from(anchors) };
}

/** The texts between consecutive safe starts. */
function segmentsOf(corpus: CodePointText, starts: Int32Array): string[] {
  const segments: string[] = [];
  for (let index = 1; index < starts.length; index++)
    segments.push(corpus.slice(starts[index - 1]!, starts[index]!));
  return segments;
}

/**
 * Cumulative token counts of a corpus at its safe line starts, so that the token count of
 * a prompt assembled from corpus ranges and short literals costs a few small encodes
 * instead of a full pass. Valid only for tokenizers with `additiveAtLineStarts`.
 *
 * A line start s is safe when corpus[s-1] is "\n", corpus[s-2] is not whitespace and
 * corpus[s] is neither whitespace nor "/": tiktoken-style pretokenisers always cut there.
 * For tokenizers with `additiveAfterBlankLines`, a run of newlines may precede s, as long
 * as the character before the run is not whitespace.
 */
export class CorpusTokenIndex {
  readonly tokenizer: Tokenizer;
  private readonly corpus: CodePointText;
  /** Safe line starts, ascending, as code-point offsets. */
  private readonly starts: Int32Array;
  /**
   * Per safe start, the first position its safety depends on (the non-space character before
   * its newline run): a range may use the start only if it holds that position too.
   */
  private readonly anchors: Int32Array;
  /** cumulative[i] = tokens of corpus[starts[0], starts[i]). */
  private readonly cumulative: Float64Array;
  /**
   * Counts of the short windows around cuts and literals, by text: a fit probes dozens of
   * haystack lengths whose prompts share most windows (the instruction and the haystack's head,
   * the needle when its insertion point has not moved). Bounded; cleared when full.
   */
  private readonly windowCounts = new Map<string, number>();
  /**
   * Counts of the words a window splits into where the tokenizer is additive after letters: the
   * windows of one fit's probes differ only around their cuts, so most of their words were seen.
   */
  private readonly pieceCounts = new Map<string, number>();

  /**
   * Counts the corpus's segments in this thread. `create` counts them by the fastest path there
   * is (a native counter or worker threads); both give the same index.
   */
  constructor(options: IndexOptions, boundaries = safeStarts(options), segmentCounts?: ArrayLike<number>) {
    this.corpus = options.corpus;
    this.tokenizer = options.tokenizer;
    this.starts = boundaries.starts;
    this.anchors = boundaries.anchors;
    const counts =
      segmentCounts ??
      segmentsOf(options.corpus, boundaries.starts).map((segment) => options.tokenizer.count(segment));
    if (counts.length !== Math.max(0, this.starts.length - 1)) {
      throw new Error('internal: one count per segment between safe starts');
    }
    this.cumulative = new Float64Array(this.starts.length);
    for (let index = 1; index < this.starts.length; index++) {
      this.cumulative[index] = this.cumulative[index - 1]! + counts[index - 1]!;
    }
  }

  /** The index, its segments counted by `countMany` (native or on worker threads where it can). */
  static async create(
    options: IndexOptions & { onPath?: (path: CountPath) => void },
  ): Promise<CorpusTokenIndex> {
    const boundaries = safeStarts(options);
    const counts = await countMany(options.tokenizer, segmentsOf(options.corpus, boundaries.starts), {
      onPath: options.onPath,
    });
    return new CorpusTokenIndex(options, boundaries, counts);
  }

  /** Index of the first entry of `values` (ascending) that is >= position, or its length. */
  private static firstAtOrAfter(values: Int32Array, position: number): number {
    let low = 0;
    let high = values.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (values[middle]! < position) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Token count of the prompt the parts assemble to; equals tokenizer.count(joined). */
  count(parts: readonly PromptPart[]): number {
    let total = 0;
    let window = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        window += part;
        continue;
      }
      // Safe starts usable inside this range: their two preceding characters and the
      // character at them must all come from the range, so nothing around them changed.
      // Usable starts: everything their safety depends on lies in this range (anchors and
      // starts both ascend, so the first usable one is the first with its anchor inside).
      const first = CorpusTokenIndex.firstAtOrAfter(this.anchors, part.start);
      const last = CorpusTokenIndex.firstAtOrAfter(this.starts, part.end) - 1;
      if (first > last || first >= this.starts.length) {
        window += this.corpus.slice(part.start, part.end);
        continue;
      }
      window += this.corpus.slice(part.start, this.starts[first]!);
      total += this.countWindow(window);
      total += this.cumulative[last]! - this.cumulative[first]!;
      window = this.corpus.slice(this.starts[last]!, part.end);
    }
    return total + this.countWindow(window);
  }

  private countWindow(window: string): number {
    let count = this.windowCounts.get(window);
    if (count === undefined) {
      count = this.tokenizer.additiveAfterLetters ? this.countPieces(window) : this.tokenizer.count(window);
      if (this.windowCounts.size >= 20_000) this.windowCounts.clear();
      this.windowCounts.set(window, count);
    }
    return count;
  }

  private countPieces(window: string): number {
    let total = 0;
    for (const piece of window.split(AFTER_LETTER)) {
      let count = this.pieceCounts.get(piece);
      if (count === undefined) {
        count = this.tokenizer.count(piece);
        if (this.pieceCounts.size >= 200_000) this.pieceCounts.clear();
        this.pieceCounts.set(piece, count);
      }
      total += count;
    }
    return total;
  }
}
