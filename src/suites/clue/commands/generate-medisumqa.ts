import { bindModel, type ModelOverrides } from '../../../compose/bind-model.js';
import { loadConfig } from '../../../compose/config.js';
import { fitPrefill, noPrefillReason } from '../../../compose/fit-prefill.js';
import {
  answerGenerationRequests,
  generationOutputLimit,
  generationStorePath,
} from '../../../compose/generation-runs.js';
import { checkRestrictedData, type DataRestriction } from '../../../compose/restricted-data.js';
import type { RetryOptions, RunHooks } from '../../../compose/run-model.js';
import { Store } from '../../../store/store.js';
import { type GeneratedNote, generateMeDiSumQaNotes } from '../generate-medisumqa.js';
import { GENERATION_MAX_TOKENS, llama3Prompt, STOP_SEQUENCES } from '../medisumqa-generation.js';

/** What `generateMeDiSumQa` takes: the MIMIC-IV discharge notes, the generating model and the home of the store. */
export interface GenerateMeDiSumQaRequest extends ModelOverrides, RetryOptions {
  discharge: string;
  /** A model spec, as for `run`. */
  model: string;
  config?: string;
  home?: string;
  /** Keep no note, prompt or answer text in generate.sqlite: hashes and lengths only (a re-run asks again). */
  redact?: boolean;
  maxNotes?: number;
  exampleNote?: string;
}

const MIMIC: DataRestriction = {
  what: 'MIMIC-IV discharge notes (MeDiSumQA generation)',
  why: 'MIMIC, PhysioNet credentialed data',
};

const STEP_NAMES = { facts: 'step 1 (statements)', questions: 'step 2 (questions)' } as const;

/**
 * `medbench generate medisumqa`: generate_qas.py with any chat model. Both steps go through the
 * run pipeline, each a run in the generation store; the text goes only to endpoints approved for
 * restricted data, checked before the file is read.
 */
export async function generateMeDiSumQa(
  request: GenerateMeDiSumQaRequest,
  hooks: RunHooks = {},
): Promise<{ notes: GeneratedNote[]; total: number; statements: number; prompts: string }> {
  const { config } = await loadConfig(request.config);
  const model = await bindModel({ spec: request.model, config, overrides: request });
  checkRestrictedData(model, MIMIC);
  const prefill = fitPrefill([], model.endpoints[0]!.model.capabilities);
  const prompts = model.instruct
    ? `chat messages; the prefill is ${prefill}`
    : "Meta-Llama-3-Instruct's chat template as text, prefill included (the script's exact prompt)";
  const capabilities = model.endpoints[0]!.model.capabilities;
  // Both steps' prompts end with a prefill (the script's "Statements:" and "Question:").
  if (model.instruct && prefill.startsWith('left out'))
    hooks.onNotice?.(
      `warning: the generation prompts' prefill is left out: ${noPrefillReason(capabilities)}, so prompts differ from the script's.`,
    );
  const maxOutputTokens = generationOutputLimit({
    spec: request.model,
    config,
    flag: request.maxOutputTokens,
    protocol: GENERATION_MAX_TOKENS,
  });
  const store = new Store(generationStorePath(request.home));
  try {
    const result = await generateMeDiSumQaNotes({
      discharge: request.discharge,
      ...(request.maxNotes !== undefined ? { maxNotes: request.maxNotes } : {}),
      ...(request.exampleNote !== undefined ? { exampleNote: request.exampleNote } : {}),
      ...(hooks.onNotice ? { onPhase: (phase: string) => hooks.onNotice!(`${phase}…`) } : {}),
      answer: (step, requests) =>
        answerGenerationRequests({
          store,
          model,
          config,
          retry: request,
          hooks,
          restricted: MIMIC,
          generation: {
            suite: 'clue',
            name: 'medisumqa-generation',
            step: STEP_NAMES[step],
            source: request.discharge,
          },
          asText: (entry) => llama3Prompt(entry.messages, entry.prefill),
          // The script's stop sequences; its limit unless the flag or the config sets one.
          maxOutputTokens,
          stop: STOP_SEQUENCES,
          requests,
          ...(request.redact ? { redact: true } : {}),
        }),
    });
    return { ...result, prompts };
  } finally {
    store.close();
  }
}
