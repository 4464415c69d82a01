import type { Tokenizer } from '../core/tokenizer.js';

/** Slices this long take a few milliseconds to count: short enough not to hold up arriving answers. */
const SLICE_CHARS = 16_384;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Where `text` may be cut so that counts add up (see `Tokenizer.additiveAtLineStarts`): after a
 * newline preceded by a non-space (or, where the tokenizer allows, by a run of newlines that
 * follows one), before a character that is neither whitespace nor "/".
 */
function nextSafeCut(text: string, from: number, blankLinesOk: boolean): number {
  for (let newline = text.indexOf('\n', from); newline !== -1; newline = text.indexOf('\n', newline + 1)) {
    const cut = newline + 1;
    if (cut >= text.length) return -1;
    let before = newline - 1;
    if (blankLinesOk) while (before >= 0 && text[before] === '\n') before--;
    const after = text[cut]!;
    if (before >= 0 && !/\s/.test(text[before]!) && after !== '/' && !/\s/.test(after)) return cut;
  }
  return -1;
}

/**
 * `tokenizer.count(text)`, counted in slices cut where counts add up, giving the event loop a
 * turn between slices: a 200k-token prompt counted while requests are in flight no longer
 * holds up their answers (which medbench commits the moment they arrive) for 100 ms. Texts
 * without such cuts, and tokenizers whose counts do not add up, are counted in one call.
 */
export async function countTokensYielding(tokenizer: Tokenizer, text: string): Promise<number> {
  if (text.length <= SLICE_CHARS || !tokenizer.additiveAtLineStarts) return tokenizer.count(text);
  const blankLinesOk = tokenizer.additiveAfterBlankLines === true;
  let total = 0;
  let start = 0;
  while (start < text.length) {
    const cut =
      text.length - start <= SLICE_CHARS ? -1 : nextSafeCut(text, start + SLICE_CHARS, blankLinesOk);
    const end = cut === -1 ? text.length : cut;
    total += tokenizer.count(text.slice(start, end));
    start = end;
    if (start < text.length) await yieldToEventLoop();
  }
  return total;
}
