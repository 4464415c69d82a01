/**
 * A corpus addressed in code points, as Python's `len` and slicing do. The published
 * corpora hold no characters outside the BMP, where this is plain string indexing;
 * otherwise offsets are mapped through a code-point table.
 */
export class CodePointText {
  readonly text: string;
  readonly length: number;
  private readonly unitOffsets: Uint32Array | undefined;

  constructor(text: string) {
    this.text = text;
    if (/[\uD800-\uDFFF]/.test(text)) {
      const offsets: number[] = [];
      for (let unit = 0; unit < text.length; ) {
        offsets.push(unit);
        const code = text.codePointAt(unit)!;
        unit += code > 0xffff ? 2 : 1;
      }
      offsets.push(text.length);
      this.unitOffsets = Uint32Array.from(offsets);
      this.length = offsets.length - 1;
    } else {
      this.unitOffsets = undefined;
      this.length = text.length;
    }
  }

  /** Code-point slice [start, end). */
  slice(start: number, end: number): string {
    if (!this.unitOffsets) return this.text.slice(start, end);
    return this.text.slice(this.unitOffsets[start], this.unitOffsets[end]);
  }

  /** The code point at `index` as a string. */
  charAt(index: number): string {
    return this.slice(index, index + 1);
  }
}

/** Length in code points, like Python's `len`. */
export function codePointLength(text: string): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}
