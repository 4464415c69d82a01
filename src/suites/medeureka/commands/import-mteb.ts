import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { resolveHome, storePathIn } from '../../../compose/home.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import { MedbenchError } from '../../../core/errors.js';
import { describeValue, readJsonFile } from '../../../io/text-file.js';
import { canonicalJson } from '../../../runner/canonical-json.js';
import { resultRecord } from '../../../runner/result-columns.js';
import { NO_MODEL_CALL, Store, sha256 } from '../../../store/store.js';
import { suiteLeaderboard } from '../../../store/suite-leaderboard.js';
import { MTEB_IMPORT_PROVIDER } from '../mteb-table.js';
import { fromMtebScores, type MtebTaskResult, mtebTaskResultSchema } from '../mteb-task-result.js';
import { medeurekaSuite } from '../suite.js';

/** The model a results file is of: `--model`, else the `model_meta.json` beside it. */
interface MtebModel {
  name: string;
  revision: string | null;
}

const modelMetaSchema = z.looseObject({
  name: z.string().min(1),
  revision: z.string().nullable().optional(),
});

/** Reads and checks one TaskResult file; a bad one is an error naming the file and the field. */
export function readMtebTaskResult(path: string): MtebTaskResult {
  const json = readJsonFile(path);
  const parsed = mtebTaskResultSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const found = issue.path.reduce<unknown>((inner, key) => (inner as never)?.[key as never], json);
  const historic = typeof json === 'object' && json !== null && !('task_name' in json);
  throw new MedbenchError({
    code: 'DATA_INVALID',
    message: `${path}: not an MTEB TaskResult: field "${issue.path.join('.')}": ${issue.message}; found ${describeValue(found)}.`,
    hint: historic
      ? 'Results written before mteb 1.11 have another shape: load the file with mteb ≥ 1.11 (TaskResult.from_disk) and save it again (to_disk), then import that.'
      : 'Import the files mteb writes (TaskResult.to_disk), e.g. results/<model>/<revision>/<task>.json of embeddings-benchmark/results.',
  });
}

function modelOf(path: string, override: string | undefined): MtebModel {
  if (override) return { name: override, revision: null };
  const metaPath = join(dirname(path), 'model_meta.json');
  if (!existsSync(metaPath))
    throw new MedbenchError({
      code: 'USAGE',
      message: `${path}: which model's results these are is not known: there is no model_meta.json beside the file.`,
      hint: 'Name the model with --model <name>, or keep the file in its results folder (<model>/<revision>/ with model_meta.json).',
    });
  const meta = modelMetaSchema.safeParse(readJsonFile(metaPath));
  if (!meta.success)
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${metaPath}: expected a JSON object with a "name" string (and "revision", a string or null).`,
      hint: 'Name the model with --model <name> instead.',
    });
  return { name: meta.data.name, revision: meta.data.revision ?? null };
}

/** The run an MTEB model's imported results are kept in: the same on every import. */
export function mtebImportRunId(model: MtebModel): string {
  return sha256(canonicalJson({ imported: 'mteb-results-v1', ...model })).slice(0, 16);
}

/** One imported file's rows: one per split and subset (`<task>/<split>/<subset>`), scores as fractions under medbench's keys. */
function taskRows(runId: string, file: string, result: MtebTaskResult) {
  return Object.entries(result.scores).flatMap(([split, entries]) =>
    entries.map((entry) =>
      resultRecord({
        runId,
        sample: {
          id: `${result.task_name}/${split}/${entry.hf_subset}`,
          task: result.task_name,
          params: {
            split,
            subset: entry.hf_subset,
            languages: entry.languages.join(','),
            mainScore: entry.main_score,
            datasetRevision: result.dataset_revision,
            mtebVersion: result.mteb_version,
            file,
          },
          gold: null,
          promptChars: null,
        },
        prompt: null,
        promptTokens: null,
        outcome: { status: 'ok', rawOutput: null, parsed: null, scores: fromMtebScores(entry) },
        usage: { ...NO_MODEL_CALL, attempts: null },
      }),
    ),
  );
}

/** Every file read and checked first; then, in one transaction, one imported run per model. */
export function importMtebResults(
  options: { files: readonly string[]; model?: string; home?: string },
  output: CommandOutput,
): void {
  const read = options.files.map((file) => {
    const path = resolve(file);
    return { path, result: readMtebTaskResult(path), model: modelOf(path, options.model) };
  });
  const byModel = new Map<string, { model: MtebModel; rows: ReturnType<typeof taskRows> }>();
  for (const { path, result, model } of read) {
    const runId = mtebImportRunId(model);
    const entry = byModel.get(runId) ?? { model, rows: [] };
    for (const row of taskRows(runId, path, result)) {
      if (entry.rows.some((other) => other.sampleId === row.sampleId))
        throw new MedbenchError({
          code: 'USAGE',
          message: `${path}: ${model.name} has ${row.sampleId} twice among the files given.`,
          hint: 'Import one file per task, split and subset of a model.',
        });
      entry.rows.push(row);
    }
    byModel.set(runId, entry);
  }
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    store.transaction(() => {
      for (const [runId, { model, rows }] of byModel) {
        store.ensureRun({
          id: runId,
          suite: 'medeureka',
          label: model.name,
          datasetId: 'mteb-results-v1',
          datasetPath: null,
          model: { provider: MTEB_IMPORT_PROVIDER, modelId: model.name, revision: model.revision },
          parameters: { imported: 'mteb TaskResult files' },
          source: 'imported',
          scoringMode: 'standard',
          createdAt: new Date().toISOString(),
        });
        for (const row of rows) store.putResult(row);
      }
    });
    suiteLeaderboard(store, medeurekaSuite, { save: true });
  } finally {
    store.close();
  }
  for (const [runId, { model, rows }] of byModel)
    output.stdout(
      `${model.name}${model.revision ? ` (${model.revision})` : ''}: ${rows.length} task results imported as run ${runId}\n`,
    );
}

/** `medbench import mteb <files...>`. */
export const importMtebCommand: SuiteCommand = {
  verb: 'import',
  name: 'mteb',
  arguments: ['<files...>'],
  description:
    "import MTEB TaskResult files (a published model's results, or `export logs --format mteb`'s): the MedEureka report and the viewer show them beside medbench's runs, marked imported",
  options: [
    {
      flags: '--model <name>',
      description: 'the model the files are of (default: the name in the model_meta.json beside each file)',
    },
  ],
  run: async (call, context) =>
    importMtebResults(
      {
        files: call.arguments[0] as unknown as string[],
        ...(call.options as { model?: string; home?: string }),
      },
      context.output,
    ),
};
