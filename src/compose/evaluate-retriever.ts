import { resolve } from 'node:path';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { SampleLimit } from '../core/sample-limit.js';
import { describeSampleLimit } from '../core/sample-limit.js';
import { canonicalJson } from '../runner/canonical-json.js';
import { resultRecord } from '../runner/result-columns.js';
import { runComputed } from '../runner/run-computed.js';
import { runRecordOf } from '../runner/run-identity.js';
import { firstPerTask } from '../runner/select-samples.js';
import { EmbeddingCache } from '../store/embedding-cache.js';
import { type ResultRecord, Store, sha256 } from '../store/store.js';
import { suiteLeaderboard } from '../store/suite-leaderboard.js';
import type { RetrievalTask } from '../suites/medeureka/assemble-tasks.js';
import { evaluateRetrieval, type QueryResult } from '../suites/medeureka/evaluate.js';
import { loadMedEurekaRelease } from '../suites/medeureka/load-release.js';
import { selectTasks } from '../suites/medeureka/select-tasks.js';
import { medeurekaSuite } from '../suites/medeureka/suite.js';
import { loadConfig } from './config.js';
import { embeddingCachePathIn, resolveHome, storePathIn } from './home.js';
import { checkRetrieverRestricted, type RetrieverOverrides, retrieverFromSpec } from './retrievers.js';
import { type RunHooks, retryPolicyFrom } from './run-model.js';
import { storedRunText } from './stored-report.js';

export interface EvaluateRetrieverRequest extends RetrieverOverrides {
  /** The MedEureka release folder (any official form). */
  data: string;
  /** An embedding model spec, bm25 or lsa. */
  model: string;
  tasks?: string;
  /** Only the first n queries of each task, in the release's order, against the whole corpus (a run of its own). */
  limit?: number;
  home?: string;
  config?: string;
  label?: string;
  embeddingCache?: boolean;
  maxRetries?: number;
  maxRetryWaitMs?: number;
  /** The queries and documents are restricted: embed them only where approved (in process, on this machine). */
  restricted?: boolean;
  /**
   * Store hashes and lengths instead of the query texts, the rankings (with their top texts) and
   * the targets (a run of its own; scores are kept).
   */
  redact?: boolean;
  /** Not supported for retrieval runs yet: refused rather than ignored. */
  dryRun?: boolean;
  /** Refused: a MedEureka run is not split across machines yet. */
  shard?: unknown;
}

/** One ranked query as a result row: its ranking is the parsed answer, its input the prompt. */
function queryResultRecord(runId: string, result: QueryResult): ResultRecord {
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

/** The first `first` queries of each task (`--limit`); every corpus stays whole. */
function firstQueries(
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
function retrievalRun(
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
        topK: 500,
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

/**
 * A MedEureka run: ranks each task's corpus with the retriever and stores every query's top-500
 * ranking and scores, one task at a time through the run pipeline (a re-run ranks only the tasks
 * not stored; embeddings are cached, so it costs no model calls for texts embedded before).
 */
export async function evaluateRetriever(
  request: EvaluateRetrieverRequest,
  hooks: RunHooks = {},
): Promise<RunRecord> {
  for (const [flag, given] of [
    ['--dry-run', request.dryRun],
    ['--shard', request.shard],
  ] as const)
    if (given)
      throw new MedbenchError({
        code: 'USAGE',
        message: `${flag} is not supported by \`run medeureka\` yet (it is by \`run --dataset\`).`,
      });
  const { config } = await loadConfig(request.config);
  const home = resolveHome(request.home);
  const selected = selectTasks(
    await loadMedEurekaRelease(resolve(request.data)),
    request.tasks,
    request.data,
  );
  const { tasks, limit } = firstQueries(selected, request.limit);
  if (tasks.length === 0)
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `No MedEureka tasks in ${request.data}.` });
  // An embedding server sees every query and document: restricted text only where approved.
  checkRetrieverRestricted(
    request.model,
    config,
    request.restricted ? { what: request.data, why: 'marked restricted (--restricted)' } : undefined,
  );
  const cache = request.embeddingCache === false ? undefined : new EmbeddingCache(embeddingCachePathIn(home));
  const store = new Store(storePathIn(home));
  let current = '';
  try {
    const retriever = await retrieverFromSpec({
      spec: request.model,
      config,
      overrides: request,
      ...(cache ? { cache } : {}),
      retry: retryPolicyFrom(request, config.defaults),
      onProgress: (stage, done, total) => hooks.onStage?.(`${current}: embedding ${stage}`, done, total),
    });
    const started = Date.now();
    const run = retrievalRun(request, tasks, limit, retriever.description);
    if (limit) hooks.onNotice?.(`Run ${run.id}: ${describeSampleLimit(limit)}.`);
    const summary = await runComputed({
      store,
      run,
      redactText: request.redact === true,
      ...(hooks.stopSignal ? { stopSignal: hooks.stopSignal } : {}),
      batches: tasks.map((task) => ({
        ids: task.queries.map((query) => query.id),
        compute: async (signal) => {
          current = task.key;
          const results = await evaluateRetrieval(retriever, [task], { signal });
          return results.map((result) => queryResultRecord(run.id, result));
        },
      })),
    });
    const usage =
      'usage' in retriever ? (retriever.usage as { embedded: number; cached: number }) : undefined;
    hooks.onComputed?.({
      ...summary,
      seconds: (Date.now() - started) / 1000,
      detail: `Ranked ${summary.done} queries of ${tasks.length} tasks with ${retriever.name} in ${((Date.now() - started) / 1000).toFixed(1)} s (run ${run.id}${summary.alreadyDone > 0 ? `; ${summary.alreadyDone} ranked before` : ''})${usage ? `; embedded ${usage.embedded} texts, ${usage.cached} from the cache` : ''}.`,
    });
    suiteLeaderboard(store, medeurekaSuite, { save: true });
    if (!summary.interrupted) hooks.onReport?.(storedRunText(store, medeurekaSuite, run.id));
    return run;
  } finally {
    store.close();
    cache?.close();
  }
}
