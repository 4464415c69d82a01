import { GENERATION_SETTINGS, type GenerationParameters } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { AZURE_OPENAI_DEFAULT_API_VERSION } from '../providers/azure-openai/azure-openai-chat-model.js';
import { isReasoningModelId } from '../providers/known-models.js';
import type { ModelConfig } from './config.js';

export { GENERATION_SETTINGS };

export type GenerationSetting = (typeof GENERATION_SETTINGS)[number];

const OPENAI_STYLE: Partial<Record<GenerationSetting, string>> = {
  topP: 'top_p',
  seed: 'seed',
  stop: 'stop',
  frequencyPenalty: 'frequency_penalty',
  presencePenalty: 'presence_penalty',
  extraBody: 'merged into the JSON body',
  reasoningModel: 'max_completion_tokens, no temperature',
  reasoningEffort: 'reasoning_effort',
};

const GEMINI: Partial<Record<GenerationSetting, string>> = {
  topP: 'topP',
  seed: 'seed',
  stop: 'stopSequences',
  frequencyPenalty: 'frequencyPenalty',
  presencePenalty: 'presencePenalty',
  thinkingBudget: 'thinkingConfig.thinkingBudget',
};

/**
 * What each chat provider takes of the settings, and the field it sends each as (the provider's
 * documented name); a setting a provider lacks is a config error. docs/generation-settings.md
 * shows this table. Baselines generate nothing: they take every setting and ignore it.
 */
export const PROVIDER_SETTINGS: Readonly<
  Record<ModelConfig['provider'], Partial<Record<GenerationSetting, string>>>
> = {
  'openai-compatible': OPENAI_STYLE,
  openai: OPENAI_STYLE,
  'azure-openai': OPENAI_STYLE,
  anthropic: {
    topP: 'top_p',
    stop: 'stop_sequences',
    extraBody: 'merged into the JSON body',
    thinkingBudget: 'thinking: { type: "enabled", budget_tokens }',
  },
  bedrock: {
    topP: 'inferenceConfig.topP',
    stop: 'inferenceConfig.stopSequences',
    thinkingBudget: 'additionalModelRequestFields.thinking.budget_tokens',
  },
  gemini: GEMINI,
  'vertex-ai': GEMINI,
  ollama: {
    topP: 'options.top_p',
    seed: 'options.seed',
    stop: 'options.stop',
    frequencyPenalty: 'options.frequency_penalty',
    presencePenalty: 'options.presence_penalty',
    extraBody: 'merged into the JSON body',
  },
  gguf: { topP: 'topP', seed: 'seed', stop: 'customStopTriggers' },
  baseline: {},
};

/** Body fields medbench sets itself: an extraBody may not replace them. */
const OWN_FIELDS: Readonly<Partial<Record<ModelConfig['provider'], readonly string[]>>> = {
  anthropic: [
    'model',
    'messages',
    'system',
    'stream',
    'max_tokens',
    'temperature',
    'top_p',
    'stop_sequences',
    'thinking',
  ],
  ollama: ['model', 'messages', 'stream', 'options'],
};
const OPENAI_OWN_FIELDS = [
  'model',
  'messages',
  'prompt',
  'stream',
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  ...['top_p', 'seed', 'stop', 'frequency_penalty', 'presence_penalty'],
  ...['continue_final_message', 'add_generation_prompt', 'truncate_prompt_tokens'],
];

/** Anthropic's least thinking budget (Bedrock's Claude models share it). */
const LEAST_CLAUDE_BUDGET = 1024;

function refuse(where: string, message: string, hint: string): never {
  throw new MedbenchError({ code: 'CONFIG_INVALID', message: `${where}: ${message}`, hint });
}

/** What `provider` takes, for an error's hint. */
function takes(provider: ModelConfig['provider']): string {
  const entries = Object.entries(PROVIDER_SETTINGS[provider]);
  return entries.length > 0
    ? `${provider} takes ${entries.map(([setting, field]) => `${setting} (${field})`).join(', ')}`
    : `${provider} takes none of them`;
}

/**
 * Every setting the model's provider cannot send, refused naming the setting, the provider and
 * what it takes; and the combinations the providers refuse (a reasoning model with a temperature,
 * thinking with a temperature, a thinking budget below the least).
 */
export function checkGenerationSettings(spec: string, model: ModelConfig, reasoningModel: boolean): void {
  const where = `model "${spec}" (${model.provider})`;
  const table = PROVIDER_SETTINGS[model.provider];
  if (model.provider !== 'baseline')
    for (const setting of GENERATION_SETTINGS)
      if (model[setting] !== undefined && table[setting] === undefined)
        refuse(
          where,
          `"${setting}" is not accepted by ${model.provider}.`,
          `Remove it; ${takes(model.provider)}. See docs/generation-settings.md.`,
        );
  const own = OWN_FIELDS[model.provider] ?? OPENAI_OWN_FIELDS;
  const clash = Object.keys(model.extraBody ?? {}).filter((field) => own.includes(field));
  if (clash.length > 0)
    refuse(
      where,
      `extraBody sets ${clash.join(', ')}, which medbench sends itself.`,
      'Use the setting of that name (temperature, maxOutputTokens, topP, stop …); extraBody is for fields medbench does not send.',
    );
  const setTemperature = model.temperature !== undefined && model.temperature !== 1;
  if (reasoningModel && setTemperature)
    refuse(
      where,
      `"${model.model}" is a reasoning model: it takes only the default temperature (1), not ${model.temperature}.`,
      'Remove "temperature" (or set "reasoningModel": false if this model is not one).',
    );
  for (const setting of ['topP', 'stop', 'frequencyPenalty', 'presencePenalty'] as const)
    if (reasoningModel && model[setting] !== undefined)
      refuse(
        where,
        `"${model.model}" is a reasoning model: it refuses "${setting}".`,
        `Remove "${setting}" (or set "reasoningModel": false if this model is not one).`,
      );
  if (reasoningModel && model.api === 'completions')
    refuse(
      where,
      `"${model.model}" is a reasoning model: it answers chat requests, not /completions.`,
      'Remove "api": "completions" (or --completions), or set "reasoningModel": false.',
    );
  if (model.reasoningEffort !== undefined && !reasoningModel)
    refuse(
      where,
      `"reasoningEffort" needs a reasoning model; "${model.model}" is not known as one.`,
      'Set "reasoningModel": true if it is one (o1, o3, o4-mini and gpt-5 are recognised by name).',
    );
  checkThinking(where, model);
  checkAzureReasoningEffort(where, model);
}

/**
 * Azure OpenAI's GA api-version 2024-10-21 (medbench's default) has `max_completion_tokens` but no
 * `reasoning_effort` (its inference.json in Azure/azure-rest-api-specs); Azure's reasoning-models
 * page lists 2024-12-01-preview for o1 and o3-mini, with reasoning effort. Dated versions before
 * it are refused; others (`preview`, `v1`) are left to the service.
 */
function checkAzureReasoningEffort(where: string, model: ModelConfig): void {
  if (model.provider !== 'azure-openai' || model.reasoningEffort === undefined) return;
  for (const endpoint of model.endpoints ?? []) {
    const version = endpoint.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION;
    if (/^\d{4}-\d{2}-\d{2}/.test(version) && version.slice(0, 10) < AZURE_REASONING_EFFORT_SINCE)
      refuse(
        where,
        `reasoningEffort goes as reasoning_effort, which Azure OpenAI's api-version ${version}${endpoint.apiVersion ? '' : ' (the default)'} does not have.`,
        'Set the endpoint\'s "apiVersion": "2024-12-01-preview" (or later), as Azure documents for its reasoning models, or remove "reasoningEffort". See docs/providers/azure-openai.md.',
      );
  }
}

const AZURE_REASONING_EFFORT_SINCE = '2024-12-01';

/** Claude's thinking: Anthropic's, or Bedrock's for a Claude model. */
function claudeThinking(model: ModelConfig): boolean {
  return (
    model.thinkingBudget !== undefined && (model.provider === 'anthropic' || model.provider === 'bedrock')
  );
}

/**
 * Thinking (thinkingBudget) — Claude's: no temperature but the default, its least budget and topP
 * range, on Bedrock only for a Claude model. Gemini's thinking takes any temperature.
 */
function checkThinking(where: string, model: ModelConfig): void {
  if (model.thinkingBudget === undefined || !claudeThinking(model)) return;
  if (model.temperature !== undefined && model.temperature !== 1)
    refuse(
      where,
      `Claude's thinking (thinkingBudget) takes no temperature but the default (1), not ${model.temperature}.`,
      'Remove "temperature" or "thinkingBudget".',
    );
  if (model.provider === 'bedrock' && !/claude/i.test(model.model))
    refuse(
      where,
      `thinkingBudget on Bedrock is Claude's extended thinking; "${model.model}" is not a Claude model.`,
      'Remove "thinkingBudget", or name a Claude model (anthropic.claude-… or an inference profile of one).',
    );
  if (model.topP !== undefined && model.topP < 0.95)
    refuse(
      where,
      `with thinking, Claude takes topP from 0.95 to 1, not ${model.topP}.`,
      'Raise "topP" to 0.95 or more, or remove it.',
    );
  if (model.thinkingBudget < LEAST_CLAUDE_BUDGET)
    refuse(
      where,
      `thinkingBudget ${model.thinkingBudget} is below ${LEAST_CLAUDE_BUDGET}, the least Claude's thinking takes.`,
      `Give at least ${LEAST_CLAUDE_BUDGET} (the answer's maxOutputTokens come on top of it).`,
    );
}

/** The optional settings of a model as generation parameters: only those set. */
export function generationSettings(spec: string, model: ModelConfig): Partial<GenerationParameters> {
  const reasoningModel =
    model.reasoningModel ??
    ((model.provider === 'openai' || model.provider === 'azure-openai') && isReasoningModelId(model.model));
  checkGenerationSettings(spec, model, reasoningModel);
  if (model.provider === 'baseline') return {};
  const settings: Partial<GenerationParameters> = {};
  for (const setting of GENERATION_SETTINGS) {
    const value = model[setting];
    if (value !== undefined && setting !== 'reasoningModel') Object.assign(settings, { [setting]: value });
  }
  // A reasoning model, and Claude thinking, run at their only temperature, 1 (and none is sent).
  if (reasoningModel) Object.assign(settings, { reasoningModel: true, temperature: 1 });
  if (claudeThinking(model)) Object.assign(settings, { temperature: 1 });
  return settings;
}

/** The settings a baseline was given and ignores, for a notice; undefined when none. */
export function ignoredSettingsNote(spec: string, model: ModelConfig): string | undefined {
  if (model.provider !== 'baseline') return undefined;
  const given = [...GENERATION_SETTINGS, 'temperature', 'maxOutputTokens'].filter(
    (setting) => model[setting as keyof ModelConfig] !== undefined,
  );
  return given.length > 0
    ? `note: ${spec} is a baseline: it generates nothing and ignores ${given.join(', ')}.`
    : undefined;
}
