import type { Tokenizer } from '../core/tokenizer.js';
import type { CodePointText } from './code-point-text.js';
import type { PromptPart } from './prompt-parts.js';

function isSafeStart(character: string): boolean {
  return character !== '' && character !== '/' && !/\s/.test(character);
}

/**
 * Cumulative token counts of a corpus at its safe line starts, so that the token count of
 * a prompt assembled from corpus ranges and short literals costs a few small encodes
 * instead of a full pass. Valid only for tokenizers with `additiveAtLineStarts`.
 *
 * A line start s is safe when corpus[s-1] is "\n", corpus[s-2] is not whitespace and
 * corpus[s] is neither whitespace nor "/": tiktoken-style pretokenisers always cut there.
 */
export class CorpusTokenIndex {
  readonly tokenizer: Tokenizer;
  private readonly corpus: CodePointText;
  /** Safe line starts, ascending, as code-point offsets. */
  private readonly starts: Int32Array;
  /** cumulative[i] = tokens of corpus[starts[0], starts[i]). */
  private readonly cumulative: Float64Array;

  constructor(options: { corpus: CodePointText; tokenizer: Tokenizer; limit: number }) {
    const { corpus, tokenizer } = options;
    this.corpus = corpus;
    this.tokenizer = tokenizer;
    const limit = Math.min(options.limit, corpus.length);
    const starts: number[] = [];
    for (let position = 2; position < limit; position++) {
      if (
        corpus.charAt(position - 1) === '\n' &&
        !/\s/.test(corpus.charAt(position - 2)) &&
        isSafeStart(corpus.charAt(position))
      ) {
        starts.push(position);
      }
    }
    this.starts = Int32Array.from(starts);
    this.cumulative = new Float64Array(starts.length);
    for (let index = 1; index < starts.length; index++) {
      this.cumulative[index] =
        this.cumulative[index - 1]! + tokenizer.count(corpus.slice(starts[index - 1]!, starts[index]!));
    }
  }

  /** Index of the first safe start >= position, or starts.length. */
  private firstAtOrAfter(position: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.starts[middle]! < position) low = middle + 1;
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
      const first = this.firstAtOrAfter(part.start + 2);
      const last = this.firstAtOrAfter(part.end) - 1;
      if (first > last || first >= this.starts.length) {
        window += this.corpus.slice(part.start, part.end);
        continue;
      }
      window += this.corpus.slice(part.start, this.starts[first]!);
      total += this.tokenizer.count(window);
      total += this.cumulative[last]! - this.cumulative[first]!;
      window = this.corpus.slice(this.starts[last]!, part.end);
    }
    return total + this.tokenizer.count(window);
  }
}
