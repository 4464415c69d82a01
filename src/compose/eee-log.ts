import { createHash } from 'node:crypto';
import { GENERATION_SETTINGS } from '../core/chat-model.js';
import { epochOfSampleId } from '../core/epochs.js';
import { additiveBootstrap, DEFAULT_RESAMPLES, DEFAULT_SEED } from '../metrics/uncertainty/index.js';
import { generationSettingsOf } from '../report/run-settings.js';
import {
  answerText,
  goldReferences,
  type LoggedResult,
  type LoggedRun,
  type LogMaker,
  primaryMetricOf,
  type ScoredFigure,
  scoredFigures,
  WITHHELD_TEXT,
} from './logged-runs.js';

/** The Every Eval Ever schema version these records are written to (`eval.schema.json`, pinned in test/fixtures). */
export const EEE_SCHEMA_VERSION = '0.3.0';

/** One run as Every Eval Ever records it: the aggregate JSON, its samples JSONL, and where each goes. */
export interface EeeRecords {
  /** `data/<benchmark>/<developer>/<model>/<uuid>.json`, the datastore's layout. */
  aggregatePath: string;
  samplesPath: string;
  aggregate: Record<string, unknown>;
  instances: Record<string, unknown>[];
}

/** A deterministic UUID v4 of a run: the same run exports to the same file names. */
export function runUuid(runId: string): string {
  const hex = createHash('sha256').update(`medbench-eee/${runId}`).digest('hex').slice(0, 32).split('');
  hex[12] = '4';
  hex[16] = '89ab'[Number.parseInt(hex[16]!, 16) % 4]!;
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** A path segment of the datastore: letters, digits, dot, dash and underscore. */
function segment(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_') || 'unknown';
}

/** The model id the provider was asked for, and its developer when the id names one (`org/model`). */
function modelNames(logged: LoggedRun): { id: string; developer: string; model: string } {
  const id = typeof logged.run.model.modelId === 'string' ? logged.run.model.modelId : logged.run.label;
  const slash = id.indexOf('/');
  return slash > 0
    ? { id, developer: id.slice(0, slash), model: id.slice(slash + 1) }
    : { id, developer: 'unknown', model: id };
}

/** Where the model ran, as far as its provider tells: medbench's process or the user's machine, a hosted API, or not known. */
function deploymentType(provider: unknown): 'self_deployed' | 'externally_managed' | 'unknown' {
  if (provider === 'baseline' || provider === 'gguf' || provider === 'ollama' || provider === 'local-onnx')
    return 'self_deployed';
  const hosted = ['openai', 'anthropic', 'azure-openai', 'bedrock', 'gemini', 'vertex-ai'];
  return typeof provider === 'string' && hosted.includes(provider) ? 'externally_managed' : 'unknown';
}

/** A value as EEE's string-only `additional_details` hold it. */
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The generation settings EEE names, from the run's, as it names them. */
function generationArgs(settings: Record<string, unknown>): Record<string, unknown> {
  const maxTokens = settings.maxOutputTokens;
  return {
    ...(typeof settings.temperature === 'number' ? { temperature: settings.temperature } : {}),
    ...(typeof settings.topP === 'number' ? { top_p: settings.topP } : {}),
    ...(typeof maxTokens === 'number' && maxTokens >= 1 ? { max_tokens: maxTokens } : {}),
    ...(settings.reasoningModel === true || settings.reasoningEffort !== undefined
      ? { reasoning: true }
      : {}),
  };
}

/** The report row's 95% percentile bootstrap interval over its units (as the report's intervals), when it has two or more. */
function uncertainty(figure: ScoredFigure): Record<string, unknown> {
  const units = new Map<string, Float64Array>();
  for (const row of figure.rows) {
    const sums = figure.task.sums(row);
    const unit = units.get(figure.task.unit(row)) ?? new Float64Array(sums.length);
    sums.forEach((value, index) => {
      unit[index]! += value;
    });
    units.set(figure.task.unit(row), unit);
  }
  const interval = additiveBootstrap([...units.values()], (sums) => figure.task.score(sums), {
    n: figure.rows.length,
  });
  if (interval.method === 'none') return { num_samples: figure.rows.length };
  return {
    confidence_interval: {
      lower: interval.lower,
      upper: interval.upper,
      confidence_level: interval.level,
      method: `percentile bootstrap over ${units.size} units (B=${DEFAULT_RESAMPLES}, seed ${DEFAULT_SEED})`,
    },
    num_samples: figure.rows.length,
    num_bootstrap_samples: DEFAULT_RESAMPLES,
  };
}

/** One report row as an EEE evaluation result. */
function evaluationResult(logged: LoggedRun, figure: ScoredFigure): Record<string, unknown> {
  const { suite, run } = logged;
  const settings = generationSettingsOf(run);
  return {
    evaluation_result_id: resultId(figure),
    evaluation_name: figure.task.key,
    source_data: {
      dataset_name: `${suite.title} ${figure.task.key}`,
      source_type: 'other',
      additional_details: {
        medbench_dataset_id: run.datasetId,
        ...(run.datasetPath ? { medbench_dataset_path: run.datasetPath } : {}),
      },
    },
    evaluation_timestamp: run.createdAt,
    metric_config: {
      evaluation_description: `${figure.task.statistic} (${suite.title}, ${figure.variant})`,
      metric_id: `medbench.${suite.name}.${figure.variant}`,
      metric_name: figure.task.statistic,
      metric_unit: 'proportion',
      lower_is_better: false,
      score_type: 'continuous',
      min_score: 0,
      max_score: 1,
    },
    score_details: { score: figure.score, uncertainty: uncertainty(figure) },
    generation_config: {
      generation_args: generationArgs(settings),
      additional_details: Object.fromEntries(
        Object.entries(settings)
          .filter(([name]) => (GENERATION_SETTINGS as readonly string[]).includes(name))
          .map(([name, value]) => [name, text(value)]),
      ),
    },
  };
}

const resultId = (figure: ScoredFigure) => `${figure.variant}/${figure.task.key}`;

/** What a result carries besides the texts EEE's own fields hold: everything a report reads, for `import logs`. */
function medbenchFields(result: LoggedResult): string {
  const { prompt: _prompt, rawOutput: _output, promptHash: _hash, ...fields } = result;
  return JSON.stringify({
    ...fields,
    hasPrompt: result.prompt !== null,
    hasOutput: result.rawOutput !== null,
  });
}

/** One result as an EEE instance record (single turn: the prompt as sent, the output as returned). */
function instanceRecord(
  logged: LoggedRun,
  result: LoggedResult,
  context: { evaluationId: string; modelId: string; resultIds: ReadonlyMap<LoggedResult, string> },
): Record<string, unknown> {
  const { suite } = logged;
  const score = result.scores[primaryMetricOf(suite, result.task)];
  const references = goldReferences(result.gold);
  const answer = answerText(result.parsed);
  const resultId = context.resultIds.get(result);
  const epoch = epochOfSampleId(result.sampleId);
  return {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: context.evaluationId,
    model_id: context.modelId,
    evaluation_name: result.task,
    ...(resultId ? { evaluation_result_id: resultId } : {}),
    sample_id: epoch.sampleId,
    sample_hash: result.withheld
      ? null
      : createHash('sha256')
          .update(`${result.prompt ?? ''}${references.join('')}`)
          .digest('hex'),
    interaction_type: 'single_turn',
    input: { raw: result.withheld ? WITHHELD_TEXT : (result.prompt ?? ''), reference: references },
    output: { raw: result.withheld ? [WITHHELD_TEXT] : result.rawOutput === null ? [] : [result.rawOutput] },
    answer_attribution:
      answer === null
        ? []
        : [
            {
              turn_idx: 0,
              source: 'output.raw',
              extracted_value: answer,
              extraction_method: `medbench ${suite.name} ${result.task} parser`,
              is_terminal: true,
            },
          ],
    evaluation: {
      score: typeof score === 'number' && Number.isFinite(score) ? score : 0,
      is_correct: score === 1,
    },
    token_usage:
      result.inputTokens === null || result.outputTokens === null
        ? null
        : {
            input_tokens: result.inputTokens,
            output_tokens: result.outputTokens,
            total_tokens: result.inputTokens + result.outputTokens,
            input_tokens_cache_read: result.cachedInputTokens ?? null,
            input_tokens_cache_write: result.cacheWriteTokens ?? null,
            reasoning_tokens: result.reasoningTokens ?? null,
          },
    performance: result.latencyMs === null ? null : { latency_ms: result.latencyMs },
    error: result.error,
    metadata: {
      medbench_status: result.status,
      ...(epoch.epoch > 1 ? { medbench_epoch: String(epoch.epoch) } : {}),
      medbench_result: medbenchFields(result),
    },
  };
}

/**
 * A stored run as Every Eval Ever records: the aggregate (one evaluation result per report row
 * of every metric variant: the suite's scoring, with its bootstrap interval) and one instance
 * record per result, restricted text withheld. `retrievedAt`: when the records are made.
 */
export function eeeRecords(logged: LoggedRun, made: LogMaker & { retrievedAt: Date }): EeeRecords {
  const { suite, run } = logged;
  const names = modelNames(logged);
  const uuid = runUuid(run.id);
  const folder = `data/${segment(`medbench-${suite.name}`)}/${segment(names.developer)}/${segment(names.model)}`;
  const retrieved = String(made.retrievedAt.getTime() / 1000);
  const evaluationId = `medbench-${suite.name}/${names.id}/${retrieved}`;
  const figures = scoredFigures(logged);
  // An instance record points at the report row of the default variant that holds it.
  const resultIds = new Map<LoggedResult, string>();
  for (const figure of figures.filter((entry) => entry.variant === suite.scoring?.variants[0]))
    for (const row of figure.rows) resultIds.set(row, resultId(figure));
  const instances = logged.results.map((result) =>
    instanceRecord(logged, result, { evaluationId, modelId: names.id, resultIds }),
  );
  const samplesPath = `${folder}/${uuid}_samples.jsonl`;
  const aggregate = {
    schema_version: EEE_SCHEMA_VERSION,
    evaluation_id: evaluationId,
    evaluation_timestamp: run.createdAt,
    retrieved_timestamp: retrieved,
    source_metadata: {
      source_name: `medbench ${suite.title}`,
      source_type: 'evaluation_run',
      source_organization_name: 'unknown',
      evaluator_relationship: 'other',
    },
    eval_library: {
      name: 'medbench',
      version: made.version,
      additional_details: {
        medbench_suite: suite.name,
        medbench_run: JSON.stringify(run),
        medbench_explicit_cache_costs: JSON.stringify(logged.cacheCosts),
      },
    },
    model_info: {
      name: run.label,
      id: names.id,
      ...(typeof run.model.provider === 'string' ? { inference_platform: run.model.provider } : {}),
      additional_details: {
        deployment_type: deploymentType(run.model.provider),
        model_availability: 'unknown',
      },
    },
    evaluation_results: figures.map((figure) => evaluationResult(logged, figure)),
    detailed_evaluation_results: {
      format: 'jsonl',
      file_path: samplesPath,
      hash_algorithm: 'sha256',
      checksum: createHash('sha256').update(eeeJsonl(instances)).digest('hex'),
      total_rows: instances.length,
    },
  };
  return { aggregatePath: `${folder}/${uuid}.json`, samplesPath, aggregate, instances };
}

/** Instance records as the samples file holds them: one JSON object a line. */
export function eeeJsonl(instances: readonly Record<string, unknown>[]): string {
  return instances.map((instance) => `${JSON.stringify(instance)}\n`).join('');
}
