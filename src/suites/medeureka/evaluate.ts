import type { Retriever } from '../../core/retriever.js';
import { exactHit, RETRIEVAL_CUTOFFS, reciprocalRank, targetRanks } from '../../metrics/retrieval.js';
import type { RetrievalTask } from './assemble-tasks.js';
import { datasetOfKey } from './datasets.js';
import { applyInstruction, instructionFor } from './instructions.js';
import { corpusTextCounts, mtebQueryScores } from './mteb-query-scores.js';

/** One query's outcome: its top-500 ranking and its hit / reciprocal-rank scores at every cut-off. */
export interface QueryResult {
  id: string;
  key: string;
  dataset: string;
  language: string;
  granularity: string;
  query: string;
  targets: string[];
  /** The Figure C12 instruction and the template that combined it with the query (null: none). */
  instruction: string | null;
  template: string | null;
  /** The exact text embedded for the query. */
  queryInput: string;
  /** The top-k corpus indexes and scores, and the first texts (what the sample page shows). */
  ranking: { indexes: number[]; scores: number[]; topTexts: string[] };
  /** hr@n and mrr@n for n in 1 … 500, plus first/all ranks (0 = beyond the ranking); MTEB's ndcg@n, map@n, recall@n. */
  scores: Record<string, number>;
}

export const TOP_K = 500;

/** Retrieved texts kept with each query's result, for the sample page (the ranking keeps indexes). */
export const SHOWN_TEXTS = 10;

/** A task's queries as a retriever with that instruction template embeds them (undefined: as they are). */
export function instructedQueries(task: RetrievalTask, template: string | undefined) {
  const instruction = template === undefined ? undefined : instructionFor(task.key, template);
  const queries = task.queries.map((query) => query.query);
  const queryInputs = instruction ? queries.map((query) => applyInstruction(query, instruction)) : queries;
  return { queries, queryInputs, instruction };
}

/**
 * Ranks a task's corpus for its queries. Retrievers that take instructions get each query with
 * the task's Figure C12 instruction, combined by their template; the corpus is never instructed.
 */
export async function rankTask(
  retriever: Retriever,
  task: RetrievalTask,
  options: { topK: number; signal?: AbortSignal },
) {
  const template = retriever.instructionTemplate;
  const { queries, queryInputs, instruction } = instructedQueries(task, template);
  const rankings = await retriever.rank({
    queries,
    queryInputs,
    corpus: task.corpus,
    topK: options.topK,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { rankings, queryInputs, instruction: instruction?.instruction ?? null, template: template ?? null };
}

/** Ranks each task's corpus for its queries and scores every query. */
export async function evaluateRetrieval(
  retriever: Retriever,
  tasks: readonly RetrievalTask[],
  options: { signal?: AbortSignal; onTask?: (key: string) => void } = {},
): Promise<QueryResult[]> {
  const results: QueryResult[] = [];
  for (const task of tasks) {
    options.onTask?.(task.key);
    const dataset = datasetOfKey(task.key);
    const { rankings, queryInputs, instruction, template } = await rankTask(retriever, task, {
      topK: TOP_K,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const counts = corpusTextCounts(task.corpus);
    task.queries.forEach((query, index) => {
      const ranking = rankings[index]!;
      const rankedTexts = ranking.indexes.map((corpusIndex) => task.corpus[corpusIndex]!);
      const ranks = targetRanks(rankedTexts, query.targets);
      const scores: Record<string, number> = { firstRank: ranks.first ?? 0, allRank: ranks.all ?? 0 };
      for (const n of RETRIEVAL_CUTOFFS) {
        scores[`hr@${n}`] = exactHit(ranks, n);
        scores[`mrr@${n}`] = reciprocalRank(ranks, n);
      }
      Object.assign(scores, mtebQueryScores(rankedTexts, query.targets, counts));
      results.push({
        id: query.id,
        key: task.key,
        dataset: dataset?.name ?? task.key,
        language: dataset?.language ?? '',
        granularity: dataset?.granularity ?? '',
        query: query.query,
        targets: query.targets,
        instruction,
        template,
        queryInput: queryInputs[index]!,
        ranking: {
          ...ranking,
          topTexts: ranking.indexes.slice(0, SHOWN_TEXTS).map((corpusIndex) => task.corpus[corpusIndex]!),
        },
        scores,
      });
    });
  }
  return results;
}
