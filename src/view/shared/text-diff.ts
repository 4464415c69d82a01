/** A run of a text that the other text has too ('same') or lacks ('changed'). */
export interface DiffPart {
  text: string;
  changed: boolean;
}

/** Words, runs of white space and punctuation; each Han, Hiragana or Katakana character on its own. */
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}_]+|\s+|./gsu;

/** Above this many token pairs the texts are marked changed as wholes (the table stays quick). */
const MAX_CELLS = 4_000_000;

/**
 * A word-level diff of two outputs (longest common subsequence of tokens): each side as parts,
 * those the other side lacks marked changed. Identical texts give one unchanged part each.
 */
export function textDiff(left: string, right: string): { left: DiffPart[]; right: DiffPart[] } {
  const a = left.match(TOKEN) ?? [];
  const b = right.match(TOKEN) ?? [];
  if (a.length * b.length > MAX_CELLS)
    return {
      left: left === right ? [{ text: left, changed: false }] : [{ text: left, changed: true }],
      right: left === right ? [{ text: right, changed: false }] : [{ text: right, changed: true }],
    };
  // lengths[i][j]: the LCS length of a[i:] and b[j:], in one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  const keepA: boolean[] = new Array(a.length).fill(false);
  const keepB: boolean[] = new Array(b.length).fill(false);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      keepA[i++] = true;
      keepB[j++] = true;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i++;
    else j++;
  }
  return { left: partsOf(a, keepA), right: partsOf(b, keepB) };
}

/** Adjacent tokens of the same kind joined into parts. */
function partsOf(tokens: readonly string[], kept: readonly boolean[]): DiffPart[] {
  const parts: DiffPart[] = [];
  tokens.forEach((text, index) => {
    const changed = !kept[index];
    const last = parts[parts.length - 1];
    if (last && last.changed === changed) last.text += text;
    else parts.push({ text, changed });
  });
  return parts;
}
