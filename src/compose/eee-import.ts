import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Suite } from '../core/suite.js';
import { readJsonFile, readJsonLinesFile } from '../io/text-file.js';
import type { ResultRecord, Store } from '../store/store.js';

const HINT =
  'medbench reads back the Every Eval Ever records `medbench export logs --format eee` wrote (aggregate <uuid>.json beside its <uuid>_samples.jsonl); records from other tools lack the per-result scores a report needs.';

const jsonText = <Schema extends z.ZodType>(schema: Schema) =>
  z.string().transform((text, context) => {
    try {
      return schema.parse(JSON.parse(text));
    } catch (error) {
      context.addIssue({
        code: 'custom',
        message: `not the JSON medbench writes (${(error as Error).message})`,
      });
      return z.NEVER;
    }
  });

const runSchema = z.object({
  id: z.string(),
  suite: z.string(),
  label: z.string(),
  datasetId: z.string(),
  datasetPath: z.string().nullable(),
  model: z.record(z.string(), z.unknown()),
  parameters: z.record(z.string(), z.unknown()),
  source: z.enum(['medbench', 'imported']),
  scoringMode: z.enum(['standard', 'compat']),
  createdAt: z.string(),
});

const aggregateSchema = z.object({
  evaluation_id: z.string(),
  eval_library: z.object({
    name: z.literal('medbench'),
    additional_details: z.object({
      medbench_suite: z.string(),
      medbench_run: jsonText(runSchema),
      medbench_explicit_cache_costs: jsonText(z.record(z.string(), z.number())),
    }),
  }),
  detailed_evaluation_results: z.object({ file_path: z.string(), total_rows: z.number().int() }),
});

const count = z.number().nullable();
const resultSchema = z.object({
  runId: z.string(),
  sampleId: z.string(),
  task: z.string(),
  params: z.record(z.string(), z.unknown()),
  gold: z.unknown(),
  promptChars: count,
  promptTokens: count,
  status: z.enum(['ok', 'bad_format', 'too_long', 'error']),
  parsed: z.unknown(),
  scores: z.record(z.string(), z.number().nullable()),
  inputTokens: count,
  outputTokens: count,
  reasoningTokens: count.optional(),
  cachedInputTokens: count.optional(),
  cacheWriteTokens: count.optional(),
  cost: count,
  listCost: count.optional(),
  latencyMs: count,
  attempts: count,
  cacheHit: z.boolean(),
  error: z.string().nullable(),
  redaction: z.unknown().optional(),
  withheld: z.boolean(),
  hasPrompt: z.boolean(),
  hasOutput: z.boolean(),
});

const instanceSchema = z.object({
  evaluation_id: z.string(),
  input: z.object({ raw: z.string() }),
  output: z.object({ raw: z.array(z.string()) }),
  metadata: z.object({ medbench_result: jsonText(resultSchema) }),
});

/** A run read back: its record, its results, and what its explicit caches cost by task. */
interface ImportedRun {
  run: RunRecord;
  results: ResultRecord[];
  cacheCosts: Record<string, number>;
}

/** The aggregate files under `path` (a file, or a folder searched to any depth). */
function aggregateFiles(path: string): string[] {
  if (!existsSync(path))
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `${path}: no such file or folder.` });
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(path, name))
    .sort();
}

/** One aggregate file and its samples, read and checked: the run and its results as the store takes them. */
function readRun(path: string, suites: readonly Suite[]): ImportedRun {
  const parsed = aggregateSchema.safeParse(readJsonFile(path, HINT));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: field "${issue.path.join('.')}": ${issue.message}.`,
      hint: HINT,
    });
  }
  const aggregate = parsed.data;
  const run = aggregate.eval_library.additional_details.medbench_run as RunRecord;
  if (!suites.some((suite) => suite.name === run.suite))
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: suite "${run.suite}" is not one of ${suites.map((suite) => suite.name).join(', ')}.`,
    });
  const samples = join(dirname(path), basename(aggregate.detailed_evaluation_results.file_path));
  const lines = readJsonLinesFile(samples, instanceSchema, { hint: HINT });
  if (lines.length !== aggregate.detailed_evaluation_results.total_rows)
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${samples}: ${lines.length} records, but ${path} declares ${aggregate.detailed_evaluation_results.total_rows}.`,
    });
  const results = lines.map(({ line, value }) => {
    if (value.evaluation_id !== aggregate.evaluation_id || value.metadata.medbench_result.runId !== run.id)
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${samples}:${line}: the record belongs to another evaluation than ${path} (${value.evaluation_id}).`,
      });
    const { withheld, hasPrompt, hasOutput, ...fields } = value.metadata.medbench_result;
    return {
      ...fields,
      redaction: (fields.redaction ?? null) as ResultRecord['redaction'],
      prompt: hasPrompt && !withheld ? value.input.raw : null,
      rawOutput: hasOutput && !withheld ? (value.output.raw[0] ?? '') : null,
    } as ResultRecord;
  });
  return {
    run,
    results,
    cacheCosts: aggregate.eval_library.additional_details.medbench_explicit_cache_costs,
  };
}

/**
 * Reads back the Every Eval Ever records medbench exported (a file, or a folder of them) into
 * the store: each run as it was, with its results' scores, params and counts (withheld text
 * stays out). Everything is read and checked before anything is written; one transaction.
 * Importing the same records again changes nothing.
 */
export function importEeeLogs(
  store: Store,
  path: string,
  suites: readonly Suite[],
): Array<{ run: RunRecord; results: number }> {
  const runs = aggregateFiles(path).map((file) => readRun(file, suites));
  if (runs.length === 0)
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `${path}: no aggregate .json records.`,
      hint: HINT,
    });
  store.transaction(() => {
    for (const { run, results, cacheCosts } of runs) {
      store.ensureRun(run);
      for (const result of results) store.putResult(result);
      // Costs add up in the store: a run that has them (imported before) keeps them as they are.
      if (store.explicitCaches.costsOf(run.id).size === 0)
        for (const [task, cost] of Object.entries(cacheCosts))
          store.explicitCaches.addCost({ runId: run.id, task, cache: 'imported', cost });
    }
  });
  return runs.map(({ run, results }) => ({ run, results: results.length }));
}
