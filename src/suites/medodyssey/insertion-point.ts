import type { CodePointText } from '../../tokenizers/code-point-text.js';

/**
 * The published placement rule: from `target`, walk left to the nearest sentence-boundary
 * character and return the offset just after it. When no boundary lies at or before
 * `target` the walk stops at offset 0 and the cut falls after the first character — the
 * published builder's behaviour, kept so that prompts stay identical.
 */
export function insertionPoint(options: {
  corpus: CodePointText;
  target: number;
  boundaries: ReadonlySet<string>;
}): number {
  let position = options.target;
  while (position > 0 && !options.boundaries.has(options.corpus.charAt(position))) position--;
  return position + 1;
}
