import { GENERATION_SETTINGS, type GenerationParameters } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { isReasoningModelId } from '../providers/known-models.js';
import type { GenerationSetting, ProviderDescriptor } from '../providers/provider-descriptor.js';
import { PROVIDERS, type ProviderRegistry } from '../providers/registry.js';
import type { ModelConfig } from './config.js';

export { GENERATION_SETTINGS, type GenerationSetting };

/**
 * What each chat provider takes of the settings, and the field it sends each as (the provider's
 * documented name; its descriptor's `generationSettings`); a setting a provider lacks is a config
 * error. docs/generation-settings.md shows this table. Baselines generate nothing: they take every
 * setting and ignore it.
 */
export function providerSettings(
  providers: ProviderRegistry = PROVIDERS,
): Record<string, Partial<Record<GenerationSetting, string>>> {
  return Object.fromEntries(
    providers.map((provider) => [
      provider.name,
      provider.generationSettings === 'ignored' ? {} : provider.generationSettings,
    ]),
  );
}

/** Body fields medbench sets itself, where a provider does not name its own: an extraBody may not replace them. */
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
function takes(provider: ProviderDescriptor, table: Partial<Record<GenerationSetting, string>>): string {
  const entries = Object.entries(table);
  return entries.length > 0
    ? `${provider.name} takes ${entries.map(([setting, field]) => `${setting} (${field})`).join(', ')}`
    : `${provider.name} takes none of them`;
}

/**
 * Every setting the model's provider cannot send, refused naming the setting, the provider and
 * what it takes; and the combinations the providers refuse (a reasoning model with a temperature,
 * thinking with a temperature, a thinking budget below the least).
 */
export function checkGenerationSettings(
  spec: string,
  provider: ProviderDescriptor,
  model: ModelConfig,
  reasoningModel: boolean,
): void {
  const where = `model "${spec}" (${model.provider})`;
  const table = provider.generationSettings;
  if (table !== 'ignored')
    for (const setting of GENERATION_SETTINGS)
      if (model[setting] !== undefined && table[setting] === undefined)
        refuse(
          where,
          `"${setting}" is not accepted by ${model.provider}.`,
          `Remove it; ${takes(provider, table)}. See docs/generation-settings.md.`,
        );
  const own = provider.ownBodyFields ?? OPENAI_OWN_FIELDS;
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
  checkThinking(where, provider, model);
  provider.checkModel?.(where, model);
}

/** Claude's thinking: Anthropic's, or Bedrock's for a Claude model. */
function claudeThinking(provider: ProviderDescriptor, model: ModelConfig): boolean {
  return model.thinkingBudget !== undefined && provider.claudeThinking !== undefined;
}

/**
 * Thinking (thinkingBudget) — Claude's: no temperature but the default, its least budget and topP
 * range, on Bedrock only for a Claude model. Gemini's thinking takes any temperature.
 */
function checkThinking(where: string, provider: ProviderDescriptor, model: ModelConfig): void {
  if (model.thinkingBudget === undefined || !claudeThinking(provider, model)) return;
  if (model.temperature !== undefined && model.temperature !== 1)
    refuse(
      where,
      `Claude's thinking (thinkingBudget) takes no temperature but the default (1), not ${model.temperature}.`,
      'Remove "temperature" or "thinkingBudget".',
    );
  if (provider.claudeThinking === 'claude models' && !/claude/i.test(model.model))
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
export function generationSettings(
  spec: string,
  provider: ProviderDescriptor,
  model: ModelConfig,
): Partial<GenerationParameters> {
  const reasoningModel =
    model.reasoningModel ?? (provider.reasoningModelsByName === true && isReasoningModelId(model.model));
  checkGenerationSettings(spec, provider, model, reasoningModel);
  if (provider.generationSettings === 'ignored') return {};
  const settings: Partial<GenerationParameters> = {};
  for (const setting of GENERATION_SETTINGS) {
    const value = model[setting];
    if (value !== undefined && setting !== 'reasoningModel') Object.assign(settings, { [setting]: value });
  }
  // A reasoning model, and Claude thinking, run at their only temperature, 1 (and none is sent).
  if (reasoningModel) Object.assign(settings, { reasoningModel: true, temperature: 1 });
  if (claudeThinking(provider, model)) Object.assign(settings, { temperature: 1 });
  return settings;
}

/** The settings a baseline was given and ignores, for a notice; undefined when none. */
export function ignoredSettingsNote(
  spec: string,
  provider: ProviderDescriptor,
  model: ModelConfig,
): string | undefined {
  if (provider.generationSettings !== 'ignored') return undefined;
  const given = [...GENERATION_SETTINGS, 'temperature', 'maxOutputTokens'].filter(
    (setting) => model[setting as keyof ModelConfig] !== undefined,
  );
  return given.length > 0
    ? `note: ${spec} is a baseline: it generates nothing and ignores ${given.join(', ')}.`
    : undefined;
}
