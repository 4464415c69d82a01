import { join, resolve } from 'node:path';
import { loadConfig } from '../../compose/config.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { type RetrieverOverrides, retrieverFromSpec } from '../../compose/retrievers.js';
import { MedbenchError } from '../../core/errors.js';
import { canonicalJson } from '../../runner/canonical-json.js';
import { EmbeddingCache } from '../../store/embedding-cache.js';
import { NO_MODEL_CALL, Store, sha256 } from '../../store/store.js';
import type { RetrievalTask } from '../../suites/medeureka/assemble-tasks.js';
import { canonicalTaskKey, MEDEUREKA_TASK_KEYS } from '../../suites/medeureka/datasets.js';
import { evaluateRetrieval } from '../../suites/medeureka/evaluate.js';
import { loadMedEurekaRelease } from '../../suites/medeureka/load-release.js';
import { buildMedEurekaReport, renderMedEurekaText } from '../../suites/medeureka/medeureka-report.js';
import { retryPolicyFrom } from '../run-session.js';
import type { CommandOutput } from './build-medodyssey.js';

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
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  let current = '';
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
    const results = await evaluateRetrieval(retriever, tasks, {
      signal: stop.signal,
      onTask: (key) => {
        current = key;
      },
    });
    const datasetId = sha256(
      canonicalJson(tasks.map((task) => ({ key: task.key, queries: task.queries, corpus: task.corpus }))),
    );
    const run = {
      id: sha256(canonicalJson({ datasetId, retriever: retriever.description })).slice(0, 16),
      suite: 'medeureka',
      label: options.label ?? options.model,
      datasetId,
      datasetPath: resolve(options.data),
      model: retriever.description,
      parameters: { tasks: tasks.map((task) => task.key), topK: 500 },
      source: 'medbench' as const,
      scoringMode: 'standard' as const,
      createdAt: new Date().toISOString(),
    };
    const store = new Store(storePathIn(home));
    try {
      store.transaction(() => {
        store.deleteRun(run.id);
        store.ensureRun(run);
        for (const result of results) {
          store.putResult({
            runId: run.id,
            sampleId: result.id,
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
            prompt: result.queryInput,
            promptChars: result.queryInput.length,
            promptTokens: null,
            status: 'ok',
            rawOutput: null,
            parsed: result.ranking,
            scores: result.scores,
            ...NO_MODEL_CALL,
          });
        }
      });
      const usage =
        'usage' in retriever ? (retriever.usage as { embedded: number; cached: number }) : undefined;
      output.stderr(
        `${process.stderr.isTTY ? '\r' : ''}Ranked ${results.length} queries of ${tasks.length} tasks with ${retriever.name} in ${((Date.now() - started) / 1000).toFixed(1)} s (run ${run.id})${usage ? `; embedded ${usage.embedded} texts, ${usage.cached} from the cache` : ''}.\n`,
      );
      output.stdout(
        `${renderMedEurekaText(buildMedEurekaReport([{ run, results: store.results(run.id) }]))}\n`,
      );
    } finally {
      store.close();
    }
  } finally {
    process.off('SIGINT', onSignal);
    cache?.close();
  }
}
