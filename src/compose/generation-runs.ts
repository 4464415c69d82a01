import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { answerWithoutThinking } from '../core/answer-text.js';
import type { ChatMessage, GenerationRequest } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { describeModel, modelRunIdentity } from '../runner/model-binding.js';
import { runRecordOf } from '../runner/run-identity.js';
import type { Store } from '../store/store.js';
import { modelConfigFromSpec } from './bind-model.js';
import type { loadConfig } from './config.js';
import { fitPrefill } from './fit-prefill.js';
import { resolveHome } from './home.js';
import type { DataRestriction } from './restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from './run-model.js';

/** The generate commands' --redact (each declares it: `generate medisumqa`, `generate queries`). */
export const GENERATION_REDACT_OPTION = {
  flags: '--redact',
  description:
    'keep no note, prompt or answer text in generate.sqlite (SHA-256 hashes and lengths only; the answers stay in memory until the files are written, so a re-run after a stop asks the model again)',
} as const;

/** Where generation runs are kept: their own store beside the home's, out of reports and the viewer. */
export function generationStorePath(home: string | undefined): string {
  return join(resolveHome(home), 'generate.sqlite');
}

/** A generation's "task": the answer is kept as it came; nothing is scored. */
function keepAnswer(suite: string, name: string): Task<null> {
  return {
    suite,
    name,
    metrics: [],
    primaryMetric: '',
    gold: { safeParse: () => ({ success: true, data: null }) },
    failedScores: () => ({}),
    score: ({ rawOutput }) => ({ status: 'ok', parsed: rawOutput, scores: {} }),
  };
}

/**
 * A generation's output limit: `--max-output-tokens`, else the model's `maxOutputTokens` in the
 * config, else the protocol's own (the CLUE script's 1000, the query recipe's 2000) — never the
 * evaluation runs' 500.
 */
export function generationOutputLimit(options: {
  spec: string;
  config: Awaited<ReturnType<typeof loadConfig>>['config'];
  flag: number | undefined;
  protocol: number;
}): number {
  return (
    options.flag ?? modelConfigFromSpec(options.spec, options.config).maxOutputTokens ?? options.protocol
  );
}

export interface GenerationStep {
  store: Store;
  model: ModelBinding;
  config: Awaited<ReturnType<typeof loadConfig>>['config'];
  retry: RetryOptions;
  hooks: RunHooks;
  restricted: DataRestriction | undefined;
  /** Names the runs (`medisumqa`, `medeureka-queries`) and their samples' task. */
  generation: { suite: string; name: string; step: string; source: string };
  /** Text prompts for a base model (`completions`): the whole prompt as one message. */
  asText?: (request: GenerationRequest) => string;
  maxOutputTokens: number;
  /** The protocol's stop sequences (the CLUE script's), sent with every request. */
  stop?: string[];
  requests: readonly GenerationRequest[];
  /**
   * --redact: the store keeps no prompt or answer, only hashes and lengths; the answers live in
   * memory while the command lasts, so a re-run (after a stop or a failure) asks the model again.
   */
  redact?: boolean;
}

function samplesOf(step: GenerationStep): Sample[] {
  const { model, requests } = step;
  const samples = requests.map((entry): Sample => {
    const messages: ChatMessage[] =
      !model.instruct && step.asText
        ? [{ role: 'user', content: step.asText(entry) }]
        : entry.prefill === ''
          ? entry.messages
          : [...entry.messages, { role: 'assistant', content: entry.prefill }];
    const prompt = messages.filter((message) => message.role === 'user').at(-1)!.content;
    return {
      id: entry.id,
      suite: step.generation.suite,
      task: step.generation.name,
      params: { step: step.generation.step },
      prompt,
      messages,
      promptChars: messages.reduce((sum, message) => sum + message.content.length, 0),
      promptTokens: {},
      gold: null,
      generation: { maxOutputTokens: step.maxOutputTokens, ...(step.stop ? { stop: step.stop } : {}) },
    };
  });
  if (model.instruct || !step.asText) fitPrefill(samples, model.endpoints[0]!.model.capabilities);
  return samples;
}

/** A step's run: its prompts, the model and its settings (a redacted one is a run of its own). */
function generationRun(step: GenerationStep, samples: readonly Sample[]) {
  const { model } = step;
  return runRecordOf({
    identity: {
      datasetId: createHash('sha256')
        .update(JSON.stringify(samples.map((sample) => [sample.id, sample.messages])))
        .digest('hex'),
      model: modelRunIdentity(model),
      parameters: {
        ...model.parameters,
        // What every request is sent with, not the model's run default (500 when none is set).
        maxOutputTokens: step.maxOutputTokens,
        ...(step.stop ? { protocolStop: step.stop } : {}),
        generation: step.generation.name,
        step: step.generation.step,
        ...(step.redact ? { redacted: true } : {}),
      },
      scoringMode: 'standard',
    },
    suite: `${step.generation.suite}-generation`,
    label: model.label,
    datasetPath: step.generation.source,
    description: describeModel(model),
  });
}

/**
 * Answers a step's requests through the run pipeline (retries, concurrency, the response cache,
 * resume after a stop or a crash), as one run in the generation store; the text goes only where
 * `restricted` allows. Every request must end with an answer: otherwise an error says how many
 * are missing, and running the command again asks only those (under `redact`, all of them).
 */
export async function answerGenerationRequests(step: GenerationStep): Promise<Map<string, string>> {
  const { store, model } = step;
  const samples = samplesOf(step);
  const run = generationRun(step, samples);
  const answers = new Map<string, string>();
  // A redacted run keeps no answer to resume from: it starts over, its hashes replaced.
  if (step.redact && store.getRun(run.id)) store.deleteRun(run.id);
  const summary = await runModel({
    store,
    run,
    samples,
    tasks: { [step.generation.name]: keepAnswer(step.generation.suite, step.generation.name) },
    model,
    retry: step.retry,
    defaults: step.config.defaults,
    hooks: step.hooks,
    ...(step.restricted ? { restricted: step.restricted } : {}),
    ...(step.redact
      ? {
          redactText: true,
          onResult: (result) => {
            if (result.status === 'ok' && result.rawOutput !== null)
              answers.set(result.sampleId, answerWithoutThinking(result.rawOutput));
          },
        }
      : {}),
  });
  if (!step.redact)
    for (const result of store.results(run.id))
      if (result.status === 'ok' && result.rawOutput !== null)
        answers.set(result.sampleId, answerWithoutThinking(result.rawOutput));
  const missing = samples.length - answers.size;
  if (summary.interrupted || missing > 0) {
    const example = Object.values(summary.errorExamples)[0];
    throw new MedbenchError({
      code: summary.interrupted ? 'ABORTED' : 'ENDPOINT_HTTP',
      message: `${step.generation.step}: ${missing} of ${samples.length} requests have no answer${example ? ` (${example})` : ''}; nothing was written`,
      hint: step.redact
        ? 'Run the same command again: under --redact no answer was kept, so every request is asked again.'
        : 'Run the same command again: the answers so far are kept, and only the missing ones are asked.',
    });
  }
  return answers;
}
