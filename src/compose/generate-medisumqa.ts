import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ChatMessage } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { describeModel, modelRunIdentity } from '../runner/model-binding.js';
import { runRecordOf } from '../runner/run-identity.js';
import { Store } from '../store/store.js';
import {
  type GeneratedNote,
  type GenerationRequest,
  generateMeDiSumQaNotes,
} from '../suites/clue/generate-medisumqa.js';
import { GENERATION_MAX_TOKENS, llama3Prompt } from '../suites/clue/medisumqa-generation.js';
import { bindModel, type ModelOverrides } from './bind-model.js';
import { loadConfig } from './config.js';
import { fitPrefill } from './fit-prefill.js';
import { resolveHome } from './home.js';
import { checkRestrictedData, type DataRestriction } from './restricted-data.js';
import { type RetryOptions, type RunHooks, runModel } from './run-model.js';

export interface GenerateMeDiSumQaRequest extends ModelOverrides, RetryOptions {
  discharge: string;
  /** A model spec, as for `run`. */
  model: string;
  config?: string;
  home?: string;
  maxNotes?: number;
  exampleNote?: string;
}

const TASK = 'medisumqa-generation';

/** The generation's "task": the answer is kept as it came; nothing is scored. */
const KEEP_ANSWER: Task<null> = {
  suite: 'clue',
  name: TASK,
  metrics: [],
  primaryMetric: '',
  gold: { safeParse: () => ({ success: true, data: null }) },
  failedScores: () => ({}),
  score: ({ rawOutput }) => ({ status: 'ok', parsed: rawOutput, scores: {} }),
};

const MIMIC: DataRestriction = {
  what: 'MIMIC-IV discharge notes (MeDiSumQA generation)',
  why: 'MIMIC, PhysioNet credentialed data',
};

/** Where generation runs are kept: their own store beside the home's, out of reports and the viewer. */
export function generationStorePath(home: string | undefined): string {
  return join(resolveHome(home), 'generate.sqlite');
}

/**
 * `medbench generate medisumqa`: generate_qas.py with any chat model. Both steps go through the
 * run pipeline (retries, concurrency, the response cache, resume after a stop or a crash), each
 * step a run in the generation store; the text goes only to endpoints approved for restricted
 * data, checked before the file is read.
 */
export async function generateMeDiSumQa(
  request: GenerateMeDiSumQaRequest,
  hooks: RunHooks = {},
): Promise<{ notes: GeneratedNote[]; total: number; statements: number; prompts: string }> {
  const { config } = await loadConfig(request.config);
  const model = await bindModel({ spec: request.model, config, overrides: request });
  checkRestrictedData(model, MIMIC);
  const prompts = model.instruct
    ? `chat messages; the prefill is ${fitPrefill([], model.endpoints[0]!.model.capabilities)}`
    : "Meta-Llama-3-Instruct's chat template as text, prefill included (the script's exact prompt)";
  if (prompts.includes('left out'))
    hooks.onNotice?.(`warning: the generation prompts' prefill is ${prompts.split('is ')[1]}.`);
  const store = new Store(generationStorePath(request.home));
  try {
    const result = await generateMeDiSumQaNotes({
      discharge: request.discharge,
      ...(request.maxNotes !== undefined ? { maxNotes: request.maxNotes } : {}),
      ...(request.exampleNote !== undefined ? { exampleNote: request.exampleNote } : {}),
      ...(hooks.onNotice ? { onPhase: (phase: string) => hooks.onNotice!(`${phase}…`) } : {}),
      answer: (step, requests) => answerStep({ store, model, request, hooks, config, step, requests }),
    });
    return { ...result, prompts };
  } finally {
    store.close();
  }
}

function samplesOf(requests: readonly GenerationRequest[], model: ModelBinding, step: string): Sample[] {
  const samples = requests.map((entry): Sample => {
    const messages: ChatMessage[] = model.instruct
      ? [...entry.messages, { role: 'assistant', content: entry.prefill }]
      : [{ role: 'user', content: llama3Prompt(entry.messages, entry.prefill) }];
    const prompt = messages.filter((message) => message.role === 'user').at(-1)!.content;
    return {
      id: entry.id,
      suite: 'clue',
      task: TASK,
      params: { step },
      prompt,
      messages,
      promptChars: messages.reduce((sum, message) => sum + message.content.length, 0),
      promptTokens: {},
      gold: null,
      generation: { maxOutputTokens: GENERATION_MAX_TOKENS },
    };
  });
  if (model.instruct) fitPrefill(samples, model.endpoints[0]!.model.capabilities);
  return samples;
}

async function answerStep(options: {
  store: Store;
  model: ModelBinding;
  request: GenerateMeDiSumQaRequest;
  hooks: RunHooks;
  config: Awaited<ReturnType<typeof loadConfig>>['config'];
  step: 'facts' | 'questions';
  requests: GenerationRequest[];
}): Promise<Map<string, string>> {
  const { store, model, step } = options;
  const samples = samplesOf(options.requests, model, step);
  const datasetId = createHash('sha256')
    .update(JSON.stringify(samples.map((sample) => [sample.id, sample.messages])))
    .digest('hex');
  const run = runRecordOf({
    identity: {
      datasetId,
      model: modelRunIdentity(model),
      parameters: { ...model.parameters, generation: 'medisumqa', step },
      scoringMode: 'standard',
    },
    suite: 'clue-generation',
    label: model.label,
    datasetPath: options.request.discharge,
    description: describeModel(model),
  });
  const summary = await runModel({
    store,
    run,
    samples,
    tasks: { [TASK]: KEEP_ANSWER },
    model,
    retry: options.request,
    defaults: options.config.defaults,
    hooks: options.hooks,
    restricted: MIMIC,
  });
  const answers = new Map<string, string>();
  for (const result of store.results(run.id))
    if (result.status === 'ok' && result.rawOutput !== null) answers.set(result.sampleId, result.rawOutput);
  const missing = samples.length - answers.size;
  if (summary.interrupted || missing > 0)
    throw new MedbenchError({
      code: summary.interrupted ? 'ABORTED' : 'ENDPOINT_HTTP',
      message: `${step === 'facts' ? 'step 1 (statements)' : 'step 2 (questions)'}: ${missing} of ${samples.length} notes have no answer${
        Object.keys(summary.errorExamples).length > 0 ? ` (${Object.values(summary.errorExamples)[0]})` : ''
      }; nothing was written`,
      hint: 'Run the same command again: the answers so far are kept, and only the missing ones are asked.',
    });
  return answers;
}
