import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, type MedbenchConfig } from '../../../compose/config.js';
import { embeddingCachePathIn, resolveHome } from '../../../compose/home.js';
import {
  checkRetrieverRestricted,
  embeddingConfigFromSpec,
  sparseRetrieverSpec,
} from '../../../compose/retrievers.js';
import { type RunHooks, retryPolicyFrom } from '../../../compose/run-model.js';
import type { ComputedWork, RunPlan } from '../../../compose/run-suite.js';
import { MedbenchError } from '../../../core/errors.js';
import type { Retriever } from '../../../core/retriever.js';
import type { Tokenizer } from '../../../core/tokenizer.js';
import { runComputed } from '../../../runner/run-computed.js';
import { EmbeddingCache } from '../../../store/embedding-cache.js';
import type { RetrievalTask } from '../assemble-tasks.js';
import { evaluateRetrieval } from '../evaluate.js';
import { loadMedEurekaRelease } from '../load-release.js';
import { selectTasks } from '../select-tasks.js';
import { medeurekaSuite } from '../suite.js';
import { medeurekaRetriever } from './medeureka-retriever.js';
import { embeddingTokenizer, retrievalDryRun } from './retrieval-dry-run.js';
import {
  type EvaluateRetrieverRequest,
  firstQueries,
  queryResultRecord,
  querySamples,
  retrievalRun,
  tasksWithQueries,
} from './retrieval-run.js';

/**
 * The plan of a MedEureka run: reads the release, picks the tasks and queries, checks where the
 * texts may go and builds the retriever; nothing is embedded, sent or stored yet. Its items are
 * the queries (a shard ranks its queries against each whole corpus), computed one task at a time
 * through `runComputed` (a re-run ranks only the tasks not stored; embeddings are cached).
 */
export async function retrieverPlan(
  request: EvaluateRetrieverRequest,
  hooks: RunHooks = {},
): Promise<RunPlan> {
  const { config } = await loadConfig(request.config);
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
  const costNotice = maxCostNotice(request, config);
  const cache = embeddingCacheFor(request);
  const current = { task: '' };
  let retriever: Retriever;
  try {
    retriever = await medeurekaRetriever({
      spec: request.model,
      config,
      overrides: request,
      ...(cache ? { cache } : {}),
      retry: retryPolicyFrom(request, config.defaults),
      dryRun: request.dryRun === true,
      onProgress: (stage, done, total) => hooks.onStage?.(`${current.task}: embedding ${stage}`, done, total),
    });
  } catch (error) {
    cache?.close();
    throw error;
  }
  const run = retrievalRun(request, tasks, limit, retriever.description);
  const tokenizer = request.dryRun ? await embeddingTokenizer(retriever) : undefined;
  return {
    suite: medeurekaSuite,
    run,
    samples: querySamples(tasks),
    limit,
    source: request.data,
    ...(costNotice ? { notices: [costNotice] } : {}),
    work: rankingWork(tasks, retriever, { label: run.label, current, ...(tokenizer ? { tokenizer } : {}) }),
    close: () => cache?.close(),
  };
}

/** The ranking as the run's computation: each task's queries of this shard against its whole corpus. */
function rankingWork(
  tasks: readonly RetrievalTask[],
  retriever: Retriever,
  context: { label: string; current: { task: string }; tokenizer?: Tokenizer },
): ComputedWork {
  return {
    kind: 'computed',
    dryRun: (_left, _finished, finished) =>
      retrievalDryRun({
        tasks,
        retriever,
        label: context.label,
        finished,
        ...(context.tokenizer ? { tokenizer: context.tokenizer } : {}),
      }),
    async compute({ store, run, samples, hooks, redactText }) {
      const started = Date.now();
      const share = tasksWithQueries(tasks, new Set(samples.map((sample) => sample.id)));
      const summary = await runComputed({
        store,
        run,
        redactText,
        ...(hooks.stopSignal ? { stopSignal: hooks.stopSignal } : {}),
        batches: share.map((task, index) => ({
          ids: task.queries.map((query) => query.id),
          compute: async (signal) => {
            context.current.task = task.key;
            hooks.onStage?.(`ranking ${task.key}; tasks done`, index, share.length);
            const results = await evaluateRetrieval(retriever, [task], { signal });
            return results.map((result) => queryResultRecord(run.id, result));
          },
        })),
      });
      const seconds = (Date.now() - started) / 1000;
      const usage =
        'usage' in retriever ? (retriever.usage as { embedded: number; cached: number }) : undefined;
      hooks.onComputed?.({
        ...summary,
        seconds,
        detail: `Ranked ${summary.done} queries of ${share.length} tasks with ${retriever.name} in ${seconds.toFixed(1)} s (run ${run.id}${summary.alreadyDone > 0 ? `; ${summary.alreadyDone} ranked before` : ''})${usage ? `; embedded ${usage.embedded} texts, ${usage.cached} from the cache` : ''}.`,
      });
      return summary;
    },
  };
}

/**
 * `--max-cost` on a MedEureka run: a retriever in this process costs nothing (said, not ignored);
 * an embedding model that is sent the texts has no prices medbench knows, so a cap cannot hold.
 */
function maxCostNotice(request: EvaluateRetrieverRequest, config: MedbenchConfig): string | undefined {
  if (request.maxCost === undefined) return undefined;
  const embedding = sparseRetrieverSpec(request.model)
    ? undefined
    : embeddingConfigFromSpec(request.model, config);
  if (!embedding || embedding.provider === 'local-onnx')
    return `--max-cost ${request.maxCost}: ${request.model} runs in this process and sends nothing, so the run costs nothing.`;
  throw new MedbenchError({
    code: 'USAGE',
    message: `--max-cost: medbench knows no prices for the embedding model ${embedding.label ?? embedding.model ?? request.model} (${embedding.provider}), so it cannot cap what this run costs.`,
    hint: 'Run without --max-cost (`--dry-run` says how many texts would be sent), or cap spending with the provider.',
  });
}

/**
 * The embedding cache an embedding model's run reads and fills (`--no-embedding-cache`: none). A
 * sparse retriever embeds nothing; a dry run creates no cache where there is none.
 */
function embeddingCacheFor(request: EvaluateRetrieverRequest): EmbeddingCache | undefined {
  if (request.embeddingCache === false || sparseRetrieverSpec(request.model)) return undefined;
  const path = embeddingCachePathIn(resolveHome(request.home));
  return request.dryRun && !existsSync(path) ? undefined : new EmbeddingCache(path);
}
