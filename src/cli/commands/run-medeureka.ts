import { resolve } from 'node:path';
import { MedbenchError } from '../../core/errors.js';
import type { Retriever } from '../../core/retriever.js';
import { Bm25Retriever } from '../../providers/bm25-retriever.js';
import { LsaRetriever } from '../../providers/lsa-retriever.js';
import { buildMedEurekaReport, renderMedEurekaText } from '../../report/medeureka-report.js';
import { canonicalJson } from '../../runner/canonical-json.js';
import { NO_MODEL_CALL, Store, sha256 } from '../../store/store.js';
import { canonicalTaskKey } from '../../suites/medeureka/datasets.js';
import { evaluateRetrieval } from '../../suites/medeureka/evaluate.js';
import { loadPlainRelease } from '../../suites/medeureka/load-plain.js';
import { resolveHome, storePathIn } from '../home.js';
import type { CommandOutput } from './build-medodyssey.js';

export interface RunMedEurekaOptions {
  data: string;
  model: string;
  tasks?: string;
  home?: string;
}

/** `bm25`, `bm25:k1=1.2,b=0.75`, `lsa`, `lsa:256`. Embedding endpoints come with the MedEureka issue's next part. */
export function retrieverFromSpec(spec: string): Retriever {
  const [name, argument] = spec.split(':');
  if (name === 'bm25') {
    const options = Object.fromEntries(
      (argument ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => pair.split('='))
        .map(([key, value]) => [key, Number(value)]),
    );
    return new Bm25Retriever({
      ...(options.k1 !== undefined ? { k1: options.k1 } : {}),
      ...(options.b !== undefined ? { b: options.b } : {}),
    });
  }
  if (name === 'lsa') return new LsaRetriever(argument ? { dimensions: Number(argument) } : {});
  throw new MedbenchError({
    code: 'MODEL_SPEC_INVALID',
    message: `"${spec}" is not a retriever medbench can run yet.`,
    hint: 'Retrievers: bm25 (bm25:k1=1.5,b=0.75) and lsa (lsa:<dimensions>). Embedding endpoints are not implemented yet.',
  });
}

/** `medbench run medeureka`: ranks every task's corpus, stores per-query rankings and scores. */
export async function runMedEurekaCommand(
  options: RunMedEurekaOptions,
  output: CommandOutput,
): Promise<void> {
  const retriever = retrieverFromSpec(options.model);
  const wanted = options.tasks?.split(',').map((key) => canonicalTaskKey(key.trim()));
  const tasks = loadPlainRelease(resolve(options.data)).filter(
    (task) => !wanted || wanted.includes(task.key),
  );
  if (tasks.length === 0)
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No matching MedEureka tasks in ${options.data}.`,
    });
  const started = Date.now();
  const results = await evaluateRetrieval(retriever, tasks);
  const datasetId = sha256(
    canonicalJson(tasks.map((task) => ({ key: task.key, queries: task.queries, corpus: task.corpus }))),
  );
  const run = {
    id: sha256(canonicalJson({ datasetId, retriever: retriever.description })).slice(0, 16),
    suite: 'medeureka',
    label: options.model,
    datasetId,
    datasetPath: resolve(options.data),
    model: retriever.description,
    parameters: { tasks: tasks.map((task) => task.key) },
    source: 'medbench' as const,
    scoringMode: 'standard' as const,
    createdAt: new Date().toISOString(),
  };
  const store = new Store(storePathIn(resolveHome(options.home)));
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
          },
          gold: { targets: result.targets },
          prompt: result.query,
          promptChars: result.query.length,
          promptTokens: null,
          status: 'ok',
          rawOutput: null,
          parsed: result.ranking,
          scores: result.scores,
          ...NO_MODEL_CALL,
        });
      }
    });
    output.stderr(
      `Ranked ${results.length} queries of ${tasks.length} tasks with ${retriever.name} in ${((Date.now() - started) / 1000).toFixed(1)} s (run ${run.id}).\n`,
    );
    output.stdout(
      `${renderMedEurekaText(buildMedEurekaReport([{ run, results: store.results(run.id) }]))}\n`,
    );
  } finally {
    store.close();
  }
}
