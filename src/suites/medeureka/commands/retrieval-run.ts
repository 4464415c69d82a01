import { resolve } from 'node:path';
import type { RetrieverOverrides } from '../../../compose/retrievers.js';
import type { RunRequest } from '../../../compose/run-suite.js';
import type { RunRecord } from '../../../core/run-record.js';
import type { Sample } from '../../../core/sample.js';
import type { SampleLimit } from '../../../core/sample-limit.js';
import { canonicalJson } from '../../../runner/canonical-json.js';
import { resultRecord } from '../../../runner/result-columns.js';
import { runRecordOf } from '../../../runner/run-identity.js';
import { firstPerTask } from '../../../runner/select-samples.js';
import { type ResultRecord, sha256 } from '../../../store/store.js';
import type { RetrievalTask } from '../assemble-tasks.js';
import { type QueryResult, TOP_K } from '../evaluate.js';

/** A MedEureka run: what every run takes (the retriever as `model`), the release and the retriever's settings. */
export interface EvaluateRetrieverRequest extends RunRequest, RetrieverOverrides {
  /** The MedEureka release folder (any official form). */
  data: string;
  /** An embedding model spec, bm25 or lsa. */
  model: string;
  /** Only these task keys (comma-separated, either spelling). */
  tasks?: string;
  /** false: neither read nor write the embedding cache. */
  embeddingCache?: boolean;
}

/** The first `first` queries of each task (`--limit`); every corpus stays whole. */
export function firstQueries(
  tasks: readonly RetrievalTask[],
  first: number | undefined,
): { tasks: RetrievalTask[]; limit: SampleLimit | undefined } {
  const { kept, limit } = firstPerTask(
    tasks.flatMap((task) => task.queries.map((query) => ({ task: task.key, query }))),
    (entry) => entry.task,
    first,
  );
  const keptQueries = new Set(kept.map((entry) => entry.query));
  return {
    tasks: tasks.map((task) => ({
      ...task,
      queries: task.queries.filter((query) => keptQueries.has(query)),
    })),
    limit,
  };
}

/** The run's record: the queries and corpora, the retriever's description, the top-k. */
export function retrievalRun(
  request: EvaluateRetrieverRequest,
  tasks: readonly RetrievalTask[],
  limit: SampleLimit | undefined,
  description: Record<string, unknown>,
): RunRecord {
  return runRecordOf({
    identity: {
      datasetId: sha256(
        canonicalJson(tasks.map((task) => ({ key: task.key, queries: task.queries, corpus: task.corpus }))),
      ),
      model: description,
      parameters: {
        tasks: tasks.map((task) => task.key),
        topK: TOP_K,
        ...(limit ? { limit } : {}),
        ...(request.redact ? { redacted: true } : {}),
      },
      scoringMode: 'standard',
    },
    suite: 'medeureka',
    label: request.label ?? request.model,
    datasetPath: resolve(request.data),
    description,
  });
}

/** Each query as a run's item (its id is stable: the task key and its place in the release). */
export function querySamples(tasks: readonly RetrievalTask[]): Sample[] {
  return tasks.flatMap((task) =>
    task.queries.map((query) => ({
      id: query.id,
      suite: 'medeureka',
      task: task.key,
      params: { key: task.key },
      prompt: query.query,
      promptChars: query.query.length,
      promptTokens: {},
      gold: { targets: query.targets },
    })),
  );
}

/** The tasks with only the queries among `ids` (a shard's, those left); corpora stay whole, empty tasks go. */
export function tasksWithQueries(tasks: readonly RetrievalTask[], ids: ReadonlySet<string>): RetrievalTask[] {
  return tasks
    .map((task) => ({ ...task, queries: task.queries.filter((query) => ids.has(query.id)) }))
    .filter((task) => task.queries.length > 0);
}

/** One ranked query as a result row: its ranking is the parsed answer, its input the prompt. */
export function queryResultRecord(runId: string, result: QueryResult): ResultRecord {
  return resultRecord({
    runId,
    sample: {
      id: result.id,
      task: result.key,
      params: {
        key: result.key,
        dataset: result.dataset,
        language: result.language,
        granularity: result.granularity,
        instruction: result.instruction,
        template: result.template,
      },
      gold: { targets: result.targets },
      promptChars: result.queryInput.length,
    },
    prompt: result.queryInput,
    promptTokens: null,
    outcome: { status: 'ok', rawOutput: null, parsed: result.ranking, scores: result.scores },
  });
}
