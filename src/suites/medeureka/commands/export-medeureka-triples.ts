import { resolve } from 'node:path';
import { loadConfig } from '../../../compose/config.js';
import { embeddingCachePathIn, resolveHome } from '../../../compose/home.js';
import { writeOutputFile } from '../../../compose/output-file.js';
import { checkRetrieverRestricted, type RetrieverOverrides } from '../../../compose/retrievers.js';
import { numberOption, type SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import { MedbenchError } from '../../../core/errors.js';
import { EmbeddingCache } from '../../../store/embedding-cache.js';
import { rankTask } from '../evaluate.js';
import { loadMedEurekaRelease } from '../load-release.js';
import { mineTrainingExamples, trainingRows } from '../mine-triples.js';
import { selectTasks } from '../select-tasks.js';
import { medeurekaRetriever } from './medeureka-retriever.js';
import { EMBEDDING_CALL_OPTIONS } from './run-options.js';

export interface ExportTriplesOptions extends RetrieverOverrides {
  data: string;
  model: string;
  out: string;
  split?: string;
  tasks?: string;
  threshold?: number;
  negatives?: number;
  format?: string;
  home?: string;
  config?: string;
  /** The release is restricted: mine only with a model that may receive it. */
  restricted?: boolean;
}

/**
 * `medbench export medeureka-triples`: mines up to `negatives` hard negatives per (query,
 * positive) with the given model (candidates scoring at least `threshold`, targets excluded)
 * and writes JSONL rows that sentence-transformers loads with `load_dataset("json", …)`.
 */
export async function exportMedEurekaTriples(
  options: ExportTriplesOptions,
  output: CommandOutput,
): Promise<void> {
  const format = options.format ?? 'triplet';
  if (format !== 'triplet' && format !== 'n-tuple')
    throw new MedbenchError({ code: 'USAGE', message: `--format ${format}: use triplet or n-tuple.` });
  const count = options.negatives ?? 5;
  const threshold = options.threshold ?? 0.5;
  if (!(count > 0) || !Number.isInteger(count))
    throw new MedbenchError({
      code: 'USAGE',
      message: `--negatives ${count}: give a positive whole number.`,
    });
  const { config } = await loadConfig(options.config);
  checkRetrieverRestricted(
    options.model,
    config,
    options.restricted ? { what: options.data, why: 'marked restricted (--restricted)' } : undefined,
  );
  const tasks = selectTasks(
    await loadMedEurekaRelease(resolve(options.data), options.split ? { split: options.split } : {}),
    options.tasks,
    options.data,
  );
  const cache = new EmbeddingCache(embeddingCachePathIn(resolveHome(options.home)));
  try {
    const retriever = await medeurekaRetriever({ spec: options.model, config, overrides: options, cache });
    const lines: string[] = [];
    let examples = 0;
    let withoutNegatives = 0;
    for (const task of tasks) {
      const { rankings } = await rankTask(retriever, task, {
        topK: Math.min(task.corpus.length, 50 + count),
      });
      const mined = mineTrainingExamples({ task, rankings, threshold, count });
      examples += mined.length;
      withoutNegatives += mined.filter((example) => example.negatives.length === 0).length;
      for (const row of trainingRows(mined, format, count)) lines.push(JSON.stringify(row));
    }
    const out = resolve(options.out);
    writeOutputFile(out, lines.length > 0 ? `${lines.join('\n')}\n` : '');
    output.stderr(
      `Wrote ${lines.length} ${format} rows for ${examples} (query, positive) pairs of ${tasks.length} tasks to ${out} ` +
        `(threshold ${threshold}, up to ${count} negatives; ${withoutNegatives} pairs found none above the threshold).\n`,
    );
  } finally {
    cache.close();
  }
}

/** `medbench export medeureka-triples`. */
export const exportTriplesCommand: SuiteCommand = {
  verb: 'export',
  name: 'medeureka-triples',
  description:
    'training triples: query, positive, hard negatives mined with --model (sentence-transformers JSONL)',
  options: [
    { flags: '--data <folder>', description: 'MedEureka release folder (any official form)', required: true },
    {
      flags: '--model <spec>',
      description: 'the mining model: embedding model spec, bm25 or lsa',
      required: true,
    },
    { flags: '--out <file>', description: 'JSONL file to write', required: true },
    {
      flags: '--split <name>',
      description: 'query split of a Hugging Face release (default test; train for training data)',
    },
    { flags: '--tasks <keys>', description: 'only these task keys (comma-separated)' },
    {
      flags: '--threshold <score>',
      description: 'keep negatives scoring at least this (cosine for embedding models; default 0.5)',
      parse: numberOption('--threshold', { integer: false }),
    },
    {
      flags: '--negatives <n>',
      description: 'hard negatives per pair (default 5)',
      parse: numberOption('--negatives', { min: 1 }),
    },
    {
      flags: '--format <format>',
      description: 'triplet (one row per negative) or n-tuple (negative_1 … negative_n)',
      choices: ['triplet', 'n-tuple'],
      default: 'triplet',
    },
    {
      flags: '--instruction <template>',
      description: 'query instruction template: e5, bge, bge-gemma2, none or a literal',
    },
    ...EMBEDDING_CALL_OPTIONS,
    { flags: '--config <file>', description: 'config file (default ./medbench.config.{json,mjs,js})' },
    {
      flags: '--restricted',
      description:
        'the release is restricted (credentialed): mine only with an in-process model, a server on this machine or an approved one',
    },
  ],
  run: (call, context) =>
    exportMedEurekaTriples(call.options as unknown as ExportTriplesOptions, context.output),
};
