import type { RankedList } from '../../core/retriever.js';
import type { RetrievalTask } from './assemble-tasks.js';

export interface TrainingExample {
  anchor: string;
  positive: string;
  /** Hard negatives, most similar first. */
  negatives: string[];
}

/**
 * Hard negatives for each (query, positive) pair as the paper mined them: the retriever's best
 * candidates that are not a target text (duplicates of a target count as targets), scoring at
 * least `threshold`, at most `count` of them.
 */
export function mineTrainingExamples(options: {
  task: RetrievalTask;
  rankings: readonly RankedList[];
  threshold: number;
  count: number;
}): TrainingExample[] {
  const { task } = options;
  return task.queries.flatMap((query, index) => {
    const ranking = options.rankings[index]!;
    const targets = new Set(query.targets);
    const negatives: string[] = [];
    const seen = new Set<string>();
    for (
      let position = 0;
      position < ranking.indexes.length && negatives.length < options.count;
      position++
    ) {
      if (ranking.scores[position]! < options.threshold) break;
      const text = task.corpus[ranking.indexes[position]!]!;
      if (targets.has(text) || seen.has(text)) continue;
      seen.add(text);
      negatives.push(text);
    }
    return query.targets.map((positive) => ({ anchor: query.query, positive, negatives }));
  });
}

/**
 * Rows sentence-transformers reads (`datasets.load_dataset("json", …)`): `triplet` gives one
 * (anchor, positive, negative) row per negative; `n-tuple` gives anchor, positive,
 * negative_1 … negative_count, keeping only examples with all `count` negatives (the columns must agree).
 */
export function trainingRows(
  examples: readonly TrainingExample[],
  format: 'triplet' | 'n-tuple',
  count: number,
): Array<Record<string, string>> {
  if (format === 'triplet')
    return examples.flatMap((example) =>
      example.negatives.map((negative) => ({ anchor: example.anchor, positive: example.positive, negative })),
    );
  return examples
    .filter((example) => example.negatives.length === count)
    .map((example) => ({
      anchor: example.anchor,
      positive: example.positive,
      ...Object.fromEntries(example.negatives.map((negative, index) => [`negative_${index + 1}`, negative])),
    }));
}
