import { createHash } from 'node:crypto';
import { epochOfSampleId } from '../core/epochs.js';
import { generationSettingsOf } from '../report/run-settings.js';
import {
  answerText,
  goldReferences,
  type LoggedResult,
  type LoggedRun,
  type LogMaker,
  scoredFigures,
  WITHHELD_TEXT,
} from './logged-runs.js';

/** The version of Inspect's eval log format these logs are written to (`EvalLog.version`). */
export const INSPECT_LOG_VERSION = 2;

/** One task of a run as an Inspect eval log, and the file name Inspect gives such a log. */
export interface InspectLogFile {
  /** `<created>_<suite>-<task>_<id>.json`, Inspect's `{timestamp}_{task}_{id}` naming. */
  name: string;
  log: Record<string, unknown>;
}

/** Token counts as Inspect's `ModelUsage` has them. */
function usageOf(rows: readonly LoggedResult[]): Record<string, number | null> {
  const sum = (pick: (row: LoggedResult) => number | null | undefined) =>
    rows.reduce((total, row) => total + (pick(row) ?? 0), 0);
  const input = sum((row) => row.inputTokens);
  const output = sum((row) => row.outputTokens);
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_cache_read: sum((row) => row.cachedInputTokens),
    input_tokens_cache_write: sum((row) => row.cacheWriteTokens),
    reasoning_tokens: sum((row) => row.reasoningTokens),
    // null when no result has a price (medbench knows no cost), not 0.
    total_cost: rows.some((row) => row.cost !== null) ? sum((row) => row.cost) : null,
  };
}

/** The run's generation settings as Inspect's `GenerateConfig` names them; the rest stay in the eval's metadata. */
function generateConfig(settings: Record<string, unknown>): Record<string, unknown> {
  const names: Record<string, string> = {
    temperature: 'temperature',
    maxOutputTokens: 'max_tokens',
    topP: 'top_p',
    seed: 'seed',
    stop: 'stop_seqs',
    frequencyPenalty: 'frequency_penalty',
    presencePenalty: 'presence_penalty',
    reasoningEffort: 'reasoning_effort',
    thinkingBudget: 'reasoning_tokens',
    extraBody: 'extra_body',
  };
  return Object.fromEntries(
    Object.entries(settings)
      .filter(([name]) => names[name] !== undefined)
      .map(([name, value]) => [names[name]!, name === 'stop' && typeof value === 'string' ? [value] : value]),
  );
}

/** One result as an Inspect sample: the prompt as one user message, the output as the assistant's answer. */
function inspectSample(result: LoggedResult, model: string): Record<string, unknown> {
  const input = result.withheld ? WITHHELD_TEXT : (result.prompt ?? '');
  const output = result.withheld ? WITHHELD_TEXT : (result.rawOutput ?? '');
  const answer = result.withheld ? WITHHELD_TEXT : answerText(result.parsed);
  const usage = usageOf([result]);
  const assistant = { role: 'assistant', content: output, model };
  // An --epochs run stores each epoch as `<id>#epoch<k>`: Inspect's sample id and epoch.
  const { sampleId, epoch } = epochOfSampleId(result.sampleId);
  return {
    id: sampleId,
    epoch,
    input,
    target: goldReferences(result.gold),
    messages: [{ role: 'user', content: input }, ...(result.rawOutput === null ? [] : [assistant])],
    output: {
      model,
      choices: result.rawOutput === null ? [] : [{ message: assistant, stop_reason: 'unknown' }],
      completion: output,
      usage: result.inputTokens === null ? null : usage,
      time: result.latencyMs === null ? null : result.latencyMs / 1000,
      error: result.error,
    },
    scores: Object.fromEntries(
      Object.entries(result.scores)
        .filter(([, value]) => typeof value === 'number' && Number.isFinite(value))
        .map(([metric, value]) => [metric, { value, answer, history: [] }]),
    ),
    ...(result.status === 'ok' || result.error === null
      ? {}
      : { error: { message: result.error, traceback: '', traceback_ansi: '' } }),
    metadata: { task: result.task, params: result.params, status: result.status, withheld: result.withheld },
    store: {},
    events: [],
    model_usage: result.inputTokens === null ? {} : { [model]: usage },
    role_usage: {},
    attachments: {},
    total_time: result.latencyMs === null ? null : result.latencyMs / 1000,
  };
}

/** The report's rows (every metric variant) over this task's results, as Inspect's `EvalScore`s. */
function inspectScores(logged: LoggedRun, rows: readonly LoggedResult[]): Record<string, unknown>[] {
  return scoredFigures({ ...logged, results: [...rows] }).map((figure) => ({
    name: figure.task.key,
    scorer: `medbench/${figure.variant}`,
    params: {},
    metrics: {
      [figure.task.statistic]: { name: figure.task.statistic, value: figure.score, params: {} },
    },
    scored_samples: figure.rows.length,
    unscored_samples: rows.length - figure.rows.length,
  }));
}

/** One task's results of a run as an Inspect `EvalLog` (its JSON log format, version 2). */
function taskLog(
  logged: LoggedRun,
  made: LogMaker,
  task: string,
  rows: readonly LoggedResult[],
): InspectLogFile {
  const { suite, run } = logged;
  const provider = typeof run.model.provider === 'string' ? run.model.provider : 'medbench';
  const model = `${provider}/${typeof run.model.modelId === 'string' ? run.model.modelId : run.label}`;
  const evalId = createHash('sha256').update(`${run.id}/${task}`).digest('base64url').slice(0, 22);
  const settings = generationSettingsOf(run);
  const finished = rows.map((row) => row.createdAt).sort();
  const log = {
    version: INSPECT_LOG_VERSION,
    status: 'success',
    eval: {
      eval_id: evalId,
      run_id: run.id,
      created: run.createdAt,
      task: `medbench/${suite.name}/${task}`,
      task_id: `${run.id}-${task}`,
      task_version: 0,
      task_attribs: {},
      task_args: {},
      task_args_passed: {},
      dataset: {
        name: `${suite.title} ${task}`,
        location: run.datasetPath,
        samples: rows.length,
        sample_ids: rows.map((row) => row.sampleId),
      },
      model,
      model_generate_config: generateConfig(settings),
      model_args: {},
      config: {},
      packages: { medbench: made.version },
      metadata: { medbench: { run, suite: suite.name, task } },
    },
    plan: { name: 'medbench', steps: [{ solver: 'generate', params: {}, params_passed: {} }], config: {} },
    results: {
      total_samples: rows.length,
      completed_samples: rows.filter((row) => row.status === 'ok').length,
      scores: inspectScores(logged, rows),
    },
    stats: {
      started_at: run.createdAt,
      completed_at: finished.at(-1) ?? run.createdAt,
      model_usage: { [model]: usageOf(rows) },
      role_usage: {},
      connection_limit_history: [],
    },
    samples: rows.map((row) => inspectSample(row, model)),
    invalidated: false,
    tags: [],
    metadata: {},
  };
  const stamp = run.createdAt.replace(/[:.]/g, '-');
  return { name: `${stamp}_${suite.name}-${task}_${evalId}.json`, log };
}

/** A stored run as Inspect eval logs: one per task (Inspect's unit of an eval), restricted text withheld. */
export function inspectLogs(logged: LoggedRun, made: LogMaker): InspectLogFile[] {
  const tasks = new Map<string, LoggedResult[]>();
  for (const result of logged.results) {
    const rows = tasks.get(result.task) ?? [];
    rows.push(result);
    tasks.set(result.task, rows);
  }
  return [...tasks].map(([task, rows]) => taskLog(logged, made, task, rows));
}
