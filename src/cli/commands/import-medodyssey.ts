import { resolve } from 'node:path';
import { canonicalJson } from '../../runner/canonical-json.js';
import { Store, sha256 } from '../../store/store.js';
import { PUBLISHED_MODELS, readPublishedOutputs } from '../../suites/medodyssey/published-outputs.js';
import { resolveHome, storePathIn } from '../home.js';
import type { CommandOutput } from './build-medodyssey.js';

export interface ImportMedOdysseyOptions {
  folder: string;
  needles?: string;
  home?: string;
}

/**
 * `medbench import medodyssey-outputs`: stores the published outputs as one run per model
 * (re-importing replaces those runs) and re-scores them in compat mode.
 */
export function importMedOdysseyCommand(options: ImportMedOdysseyOptions, output: CommandOutput): void {
  const { results, statistics } = readPublishedOutputs({
    folder: resolve(options.folder),
    ...(options.needles ? { needlesFolder: resolve(options.needles) } : {}),
  });
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    const models = [...new Set(results.map((result) => result.model))].sort();
    store.transaction(() => {
      for (const model of models) {
        const known = PUBLISHED_MODELS[model];
        const runId = sha256(canonicalJson({ imported: 'medodyssey-published-v1', model })).slice(0, 16);
        store.deleteRun(runId);
        store.ensureRun({
          id: runId,
          suite: 'medodyssey',
          label: known ? `${known.label} (published)` : `${model} (published)`,
          datasetId: 'medodyssey-published-outputs-v1',
          datasetPath: resolve(options.folder),
          model: {
            provider: 'published',
            modelId: model,
            contextWindow: known?.contextWindow ?? null,
            tokenizer: null,
          },
          parameters: { temperature: 0, maxOutputTokens: 500 },
          source: 'imported',
          scoringMode: 'compat',
          createdAt: new Date().toISOString(),
        });
        for (const result of results.filter((item) => item.model === model)) {
          store.putResult({
            runId,
            sampleId: result.sample.id,
            task: result.sample.task,
            params: result.sample.params,
            gold: result.sample.gold,
            prompt: result.hasPrompt ? result.sample.prompt : null,
            promptChars: result.hasPrompt ? result.sample.promptChars : null,
            promptTokens: result.promptTokens,
            status: result.status,
            rawOutput: result.rawOutput,
            parsed: result.parsed,
            scores: result.scores,
            inputTokens: null,
            outputTokens: null,
            cost: null,
            latencyMs: null,
            attempts: null,
            cacheHit: false,
            error: null,
          });
        }
      }
    });
    output.stdout(
      `Imported ${statistics.lines} published outputs from ${statistics.files} files: ${models.length} models (${models.join(', ')}).\n`,
    );
    const disagreements = statistics.parserDisagreements;
    output.stdout(
      disagreements.length === 0
        ? "medbench's parser agrees with every published pred_answer and format note.\n"
        : `medbench's parser disagrees with the published pred_answer/note on ${disagreements.length} lines, e.g. ${disagreements
            .slice(0, 3)
            .map((item) => `${item.file}:${item.line} (${item.detail})`)
            .join('; ')}\n`,
    );
  } finally {
    store.close();
  }
}
