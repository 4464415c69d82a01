import { join, resolve } from 'node:path';
import { loadConfig } from '../../compose/config.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { type RetrieverOverrides, retrieverFromSpec } from '../../compose/retrievers.js';
import { MedbenchError } from '../../core/errors.js';
import { canonicalJson } from '../../runner/canonical-json.js';
import { resultRecord } from '../../runner/result-columns.js';
import { runComputed } from '../../runner/run-computed.js';
import { runRecordOf } from '../../runner/run-identity.js';
import { EmbeddingCache } from '../../store/embedding-cache.js';
import { type ResultRecord, Store, sha256 } from '../../store/store.js';
import type { RetrievalTask } from '../../suites/medeureka/assemble-tasks.js';
import { canonicalTaskKey, MEDEUREKA_TASK_KEYS } from '../../suites/medeureka/datasets.js';
import { evaluateRetrieval, type QueryResult } from '../../suites/medeureka/evaluate.js';
import { loadMedEurekaRelease } from '../../suites/medeureka/load-release.js';
import { medeurekaSuite } from '../../suites/medeureka/suite.js';
import { EXIT, retryPolicyFrom, stopOnSignals } from '../run-session.js';
import type { CommandOutput } from './build-medodyssey.js';
import { storedReport } from './report.js';

export interface RunMedEurekaOptions extends RetrieverOverrides {
  data: string;
  model: string;
  tasks?: string;
  home?: string;
  config?: string;
  label?: string;
  embeddingCache?: boolean;
  maxRetries?: number;
  maxRetryWaitMs?: number;
}

/** Chooses the tasks `--tasks` names (either key spelling); unknown keys are an error. */
export function selectTasks(
  tasks: RetrievalTask[],
  wanted: string | undefined,
  data: string,
): RetrievalTask[] {
  if (!wanted) return tasks;
  const keys = wanted.split(',').map((key) => canonicalTaskKey(key.trim()));
  const unknown = keys.filter((key) => !tasks.some((task) => task.key === key));
  if (unknown.length > 0)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--tasks: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in ${data}.`,
      hint: `Tasks there: ${tasks.map((task) => task.key).join(', ')}. All MedEureka keys: ${MEDEUREKA_TASK_KEYS.join(', ')}.`,
    });
  return tasks.filter((task) => keys.includes(task.key));
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

/** Where embedding vectors are cached: beside the store, in their own file. */
export function embeddingCachePathIn(home: string): string {
  return join(home, 'embeddings.sqlite');
}

/**
 * `medbench run medeureka`: ranks every task's corpus with the retriever, then stores the run
 * (per-query top-500 rankings, scores, instruction and template) in one transaction, so a
 * failure leaves the store as it was. Embeddings are cached, so a re-run costs no model calls.
 */
export async function runMedEurekaCommand(
  options: RunMedEurekaOptions,
  output: CommandOutput,
): Promise<void> {
  const { config } = await loadConfig(options.config);
  const home = resolveHome(options.home);
  const tasks = selectTasks(await loadMedEurekaRelease(resolve(options.data)), options.tasks, options.data);
  if (tasks.length === 0)
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `No MedEureka tasks in ${options.data}.` });
  const cache = options.embeddingCache === false ? undefined : new EmbeddingCache(embeddingCachePathIn(home));
  const stops = stopOnSignals(output);
  let current = '';
  const store = new Store(storePathIn(home));
  try {
    const retriever = await retrieverFromSpec({
      spec: options.model,
      config,
      overrides: options,
      ...(cache ? { cache } : {}),
      retry: retryPolicyFrom(options, config.defaults),
      onProgress: (stage, done, total) => {
        if (process.stderr.isTTY) output.stderr(`\r${current}: embedding ${stage} ${done}/${total}   `);
      },
    });
    const started = Date.now();
    const run = runRecordOf({
      identity: {
        datasetId: sha256(
          canonicalJson(tasks.map((task) => ({ key: task.key, queries: task.queries, corpus: task.corpus }))),
        ),
        model: retriever.description,
        parameters: { tasks: tasks.map((task) => task.key), topK: 500 },
        scoringMode: 'standard',
      },
      suite: 'medeureka',
      label: options.label ?? options.model,
      datasetPath: resolve(options.data),
      description: retriever.description,
    });
    const summary = await runComputed({
      store,
      run,
      stopSignal: stops.signal,
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
    output.stderr(
      `${process.stderr.isTTY ? '\r' : ''}Ranked ${summary.done} queries of ${tasks.length} tasks with ${retriever.name} in ${((Date.now() - started) / 1000).toFixed(1)} s (run ${run.id}${summary.alreadyDone > 0 ? `; ${summary.alreadyDone} ranked before` : ''})${usage ? `; embedded ${usage.embedded} texts, ${usage.cached} from the cache` : ''}.\n`,
    );
    if (summary.interrupted) {
      output.stderr('Stopped: every finished task is stored; re-run the same command to finish.\n');
      process.exitCode = EXIT.interrupted;
      return;
    }
    output.stdout(
      `${medeurekaSuite.renderText(storedReport(store, medeurekaSuite, { runIds: [run.id] }), {})}\n`,
    );
  } finally {
    store.close();
    stops.dispose();
    cache?.close();
  }
}
