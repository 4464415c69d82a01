import { MedbenchError } from '../../core/errors.js';
import { canonicalTaskKey } from './datasets.js';

export interface RetrievalTask {
  key: string;
  queries: Array<{ id: string; query: string; targets: string[] }>;
  corpus: string[];
}

/** One query row of a release, with where it came from (for error messages). */
export interface ReleaseRow {
  task: string;
  query: string;
  targets: string[];
  where: string;
}

/**
 * Groups release rows into tasks against their corpora. Every task needs a corpus and every
 * target text must be in it (relevance is judged by text); errors name the row.
 */
export function assembleTasks(options: {
  rows: Iterable<ReleaseRow>;
  corpora: Record<string, string[]>;
  corpusSource: string;
}): RetrievalTask[] {
  const corpusByKey = new Map(
    Object.entries(options.corpora).map(([key, texts]) => [canonicalTaskKey(key), texts]),
  );
  const tasks = new Map<string, { task: RetrievalTask; texts: Set<string> }>();
  for (const row of options.rows) {
    const key = canonicalTaskKey(row.task);
    let entry = tasks.get(key);
    if (!entry) {
      const corpus = corpusByKey.get(key);
      if (!corpus) {
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${row.where}: task ${row.task} has no corpus in ${options.corpusSource}.`,
          hint: `Corpora found: ${[...corpusByKey.keys()].join(', ') || 'none'}.`,
        });
      }
      entry = { task: { key, queries: [], corpus }, texts: new Set(corpus) };
      tasks.set(key, entry);
    }
    const missing = row.targets.find((target) => !entry.texts.has(target));
    if (missing !== undefined) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${row.where}: the target "${missing.slice(0, 60)}" is not in the ${key} corpus.`,
        hint: 'Relevance is judged by text equality, so every target must appear in its corpus verbatim.',
      });
    }
    entry.task.queries.push({
      id: `${key}-${entry.task.queries.length}`,
      query: row.query,
      targets: row.targets,
    });
  }
  return [...tasks.values()].map((entry) => entry.task);
}
