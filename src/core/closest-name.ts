/** Edits (insert, delete, replace, swap two neighbours) that turn `from` into `to`. */
function editDistance(from: string, to: string): number {
  const rows = Array.from({ length: from.length + 1 }, (_, row) =>
    Array.from({ length: to.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  for (let row = 1; row <= from.length; row++) {
    for (let column = 1; column <= to.length; column++) {
      const cost = from[row - 1] === to[column - 1] ? 0 : 1;
      let best = Math.min(
        rows[row - 1]![column]! + 1,
        rows[row]![column - 1]! + 1,
        rows[row - 1]![column - 1]! + cost,
      );
      const swapped =
        row > 1 && column > 1 && from[row - 1] === to[column - 2] && from[row - 2] === to[column - 1];
      if (swapped) best = Math.min(best, rows[row - 2]![column - 2]! + 1);
      rows[row]![column] = best;
    }
  }
  return rows[from.length]![to.length]!;
}

/** Lower case, without the separators people drop or add (`GPT4o` and `gpt-4o` are one name). */
const folded = (name: string) => name.toLowerCase().replace(/[-_.\s]/g, '');

/**
 * The candidate `given` most likely mistypes, for a "did you mean": the nearest by edit distance
 * (case and separators ignored), when at most a third of its letters differ; undefined when none is
 * near, or `given` is one of them.
 */
export function closestName(given: string, candidates: readonly string[]): string | undefined {
  if (candidates.includes(given)) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(folded(given), folded(name));
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(1, Math.floor(folded(best.name).length / 3)) ? best.name : undefined;
}
