import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveHome, storePathIn } from '../../../compose/home.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import { canonicalJson } from '../../../runner/canonical-json.js';
import { resultRecord } from '../../../runner/result-columns.js';
import { NO_MODEL_CALL, Store, sha256 } from '../../../store/store.js';
import { suiteLeaderboard } from '../../../store/suite-leaderboard.js';
import { LANGUAGES, type Language } from '../constants.js';
import { needleOverlapOf } from '../needle-overlap.js';
import { releaseFolderBeside } from '../published-files.js';
import { PUBLISHED_MODELS } from '../published-models.js';
import {
  type ImportedResult,
  type PublishedFileSummary,
  readPublishedOutputs,
} from '../published-outputs.js';
import { loadNeedles, resolveDatasetFolder } from '../release.js';
import { medodysseySuite } from '../suite.js';

export interface ImportMedOdysseyOptions {
  folder: string;
  /** The release's dataset/ folder (needles, Case alternatives), if not beside evaluation_result/. */
  needles?: string;
  home?: string;
}

/** The run id of a model's published outputs: the same on every import. */
export function publishedRunId(model: string): string {
  return sha256(canonicalJson({ imported: 'medodyssey-published-v1', model })).slice(0, 16);
}

function fileLine(summary: PublishedFileSummary): string {
  const { ok, bad_format: badFormat, too_long: tooLong } = summary.statuses;
  const setting = summary.setting ? `, ${summary.setting}` : '';
  let text = `  ${summary.name}: ${summary.outputs} outputs (${ok} ok, ${badFormat} bad_format, ${tooLong} too_long${setting})`;
  if (summary.missing.length > 0) {
    text +=
      summary.task === 'niah'
        ? `; missing ${summary.missing.join(', ')}`
        : `; ${summary.missing.length} of the ${summary.expected} samples have no output (ids ${summary.missing.join(', ')})`;
  }
  return `${text}\n`;
}

/**
 * Gives each NIAH result its needle's overlap with the question (`needleOverlap`, as a build
 * does) from the release's needles files; a language without its file gets none.
 */
function addNeedleOverlaps(results: readonly ImportedResult[], datasetFolder: string): void {
  const byLanguage = new Map<Language, Map<number, number>>();
  for (const language of LANGUAGES) {
    if (!existsSync(join(datasetFolder, 'task_data', 'needles', `${language}_pure_needles.json`))) continue;
    byLanguage.set(
      language,
      new Map(
        loadNeedles(datasetFolder, language).map((needle) => [needle.id, needleOverlapOf(needle, language)]),
      ),
    );
  }
  for (const { sample } of results) {
    const overlap =
      sample.task === 'niah'
        ? byLanguage.get(sample.params.language as Language)?.get(Number(sample.params.needleId))
        : undefined;
    if (overlap !== undefined) sample.params.needleOverlap = overlap;
  }
}

/** What a run of imported outputs records about the files it came from. */
function releaseRecord(files: readonly PublishedFileSummary[], results: readonly ImportedResult[]) {
  return {
    files: files.map((file) => ({
      file: file.name,
      task: file.task,
      language: file.language,
      setting: file.setting,
      outputs: file.outputs,
      expected: file.expected,
      missing: file.missing,
    })),
    // Identity of what was imported: re-importing unchanged files adds and changes nothing.
    contentHash: sha256(
      canonicalJson(
        results.map((result) => [
          result.sample.id,
          result.status,
          result.rawOutput,
          result.sample.gold,
          result.scores,
          result.sample.params.needleOverlap ?? null,
        ]),
      ),
    ),
  };
}

/** One model's published outputs as a run (replaced when its files changed); the results stored, or 'unchanged'. */
function storePublishedRun(
  store: Store,
  read: ReturnType<typeof readPublishedOutputs>,
  model: string,
): number | 'unchanged' {
  const results = read.results.filter((item) => item.model === model);
  const release = releaseRecord(
    read.files.filter((file) => file.model === model),
    results,
  );
  const runId = publishedRunId(model);
  const existing = store.getRun(runId);
  if (
    (existing?.parameters.release as { contentHash?: string } | undefined)?.contentHash ===
    release.contentHash
  )
    return 'unchanged';
  const known = PUBLISHED_MODELS[model];
  store.deleteRun(runId);
  store.ensureRun({
    id: runId,
    suite: 'medodyssey',
    label: known ? `${known.label} (published)` : `${model} (published)`,
    datasetId: 'medodyssey-published-outputs-v1',
    datasetPath: read.evaluationFolder,
    model: {
      provider: 'published',
      modelId: model,
      contextWindow: known?.contextWindow ?? null,
      tokenizer: null,
    },
    parameters: { temperature: 0, maxOutputTokens: 500, release },
    source: 'imported',
    scoringMode: 'compat',
    createdAt: new Date().toISOString(),
  });
  for (const result of results) {
    store.putResult(
      resultRecord({
        runId,
        sample: { ...result.sample, promptChars: result.promptChars },
        prompt: result.hasPrompt ? result.sample.prompt : null,
        promptTokens: result.promptTokens,
        outcome: result,
        // Published outputs: no usage was recorded, not even the attempts.
        usage: { ...NO_MODEL_CALL, attempts: null },
      }),
    );
  }
  return results.length;
}

/**
 * `medbench import medodyssey-outputs`: stores the published outputs as one run per model,
 * re-scored in compat mode, in one transaction (a bad line leaves the store untouched).
 * Unchanged runs are left as they are; changed ones are replaced.
 */
export function importMedOdysseyOutputs(options: ImportMedOdysseyOptions, output: CommandOutput): void {
  const started = performance.now();
  // In this thread: five ways of sharing the import with a worker thread were measured, none
  // faster on two vCPUs (the reading slows to about 0.6 of its speed when two threads read;
  // copying rows between threads costs what the second core saves). See bench/README.md.
  const read = readPublishedOutputs({
    folder: resolve(options.folder),
    onFile: (name, index, total) =>
      output.progress?.update(`import medodyssey-outputs: ${index}/${total} files read; reading ${name}`),
    ...(options.needles ? { datasetFolder: resolveDatasetFolder(resolve(options.needles)) } : {}),
  });
  addNeedleOverlaps(
    read.results,
    options.needles
      ? resolveDatasetFolder(resolve(options.needles))
      : releaseFolderBeside(read.evaluationFolder),
  );
  const models = [...new Set(read.files.map((file) => file.model))].sort();
  const store = new Store(storePathIn(resolveHome(options.home)));
  let added = 0;
  let unchanged = 0;
  output.progress?.update(
    `import medodyssey-outputs: storing ${read.results.length} outputs of ${models.length} models`,
    true,
  );
  try {
    store.transaction(() => {
      for (const model of models) {
        const stored = storePublishedRun(store, read, model);
        if (stored === 'unchanged') unchanged++;
        else added += stored;
      }
    });
    suiteLeaderboard(store, medodysseySuite, { save: true });
  } finally {
    store.close();
    output.progress?.finish();
  }
  for (const file of read.files) output.stdout(fileLine(file));
  for (const name of read.unknownFiles) output.stderr(`skipped ${name}: not a published output file name\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  output.stdout(
    `Read ${read.results.length} published outputs from ${read.files.length} files (${models.length} models) in ${seconds} s: ${added} stored${unchanged > 0 ? `, ${unchanged} model${unchanged === 1 ? '' : 's'} already imported and unchanged` : ''}.\n`,
  );
  const disagreements = read.files.flatMap((file) =>
    file.parserDisagreements.map((item) => `${file.name}:${item.line} (${item.detail})`),
  );
  output.stdout(
    disagreements.length === 0
      ? "medbench's parser agrees with every published pred_answer and format note.\n"
      : `medbench's parser disagrees with the published pred_answer/note on ${disagreements.length} lines, e.g. ${disagreements.slice(0, 3).join('; ')}\n`,
  );
}

/** `medbench import medodyssey-outputs <folder>`, as the CLI declares it. */
export const importMedOdysseyOutputsCommand: SuiteCommand = {
  verb: 'import',
  name: 'medodyssey-outputs',
  arguments: ['<folder>'],
  description: "import the MedOdyssey authors' outputs (evaluation_result/) and re-score them",
  options: [
    {
      flags: '--needles <folder>',
      description: 'release folder holding dataset/task_data/needles, if not <folder>',
    },
  ],
  run: async (call, context) =>
    importMedOdysseyOutputs(
      { ...(call.options as Omit<ImportMedOdysseyOptions, 'folder'>), folder: call.arguments[0]! },
      context.output,
    ),
};
