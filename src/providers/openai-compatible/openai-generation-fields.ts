import type { GenerationParameters } from '../../core/chat-model.js';
import { field } from '../http-json.js';

/**
 * The generation fields of an OpenAI-style body (chat or completions; OpenAI, Azure, vLLM,
 * SGLang …) under OpenAI's names. A reasoning model gets `max_completion_tokens` (its reasoning
 * tokens count against it) and neither temperature nor stop sequences, which it refuses (the config
 * refuses a model's own `stop` for one; a protocol's, such as the CLUE generation script's chat
 * template markers, are left out).
 */
export function openAIGenerationFields(parameters: GenerationParameters): Record<string, unknown> {
  const reasoning = parameters.reasoningModel === true;
  return {
    ...(reasoning
      ? { max_completion_tokens: parameters.maxOutputTokens }
      : { temperature: parameters.temperature, max_tokens: parameters.maxOutputTokens }),
    ...field('top_p', parameters.topP),
    ...field('seed', parameters.seed),
    ...(reasoning ? {} : field('stop', parameters.stop)),
    ...field('frequency_penalty', parameters.frequencyPenalty),
    ...field('presence_penalty', parameters.presencePenalty),
    ...field('reasoning_effort', parameters.reasoningEffort),
  };
}
