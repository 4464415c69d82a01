import { resolve } from 'node:path';
import { loadConfig } from '../../compose/config.js';
import { embeddingCachePathIn, resolveHome } from '../../compose/home.js';
import { writeOutputFile } from '../../compose/output-file.js';
import {
  checkRetrieverRestricted,
  type RetrieverOverrides,
  retrieverFromSpec,
} from '../../compose/retrievers.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import { EmbeddingCache } from '../../store/embedding-cache.js';
import { rankTask } from '../../suites/medeureka/evaluate.js';
import { loadMedEurekaRelease } from '../../suites/medeureka/load-release.js';
import { mineTrainingExamples, trainingRows } from '../../suites/medeureka/mine-triples.js';
import { selectTasks } from '../../suites/medeureka/select-tasks.js';

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
export async function exportMedEurekaTriplesCommand(
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
    const retriever = await retrieverFromSpec({ spec: options.model, config, overrides: options, cache });
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
