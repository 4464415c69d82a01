import { z } from 'zod';
import { newId } from './platform-basics.js';
import type { Answered, Billing, PlatformSetup } from './platform-setup.js';
import { billCachedRead, errorBody, parseBody } from './platform-setup.js';
import type { AutomaticPrefixCache } from './prefix-cache.js';

const contentSchema = z.union([
  z.string(),
  z.null(),
  z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
]);

/** The fields of a chat completions request the platform reads. */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string(), content: contentSchema })).min(1),
  prompt_cache_key: z.string().optional(),
  tools: z.array(z.unknown()).optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The prompt as the model reads it, in order: tools, then each message. */
export function chatPrompt(request: ChatRequest): string {
  const tools = request.tools ? `tools: ${JSON.stringify(request.tools)}\n` : '';
  const messages = request.messages.map((message) => {
    const content = message.content;
    const text =
      typeof content === 'string'
        ? content
        : (content ?? []).map((part) => part.text ?? JSON.stringify(part)).join('');
    return `${message.role}: ${text}\n`;
  });
  return tools + messages.join('');
}

export type ErrorFlavour = 'openai-compatible' | 'azure-openai';

/** The provider's documented error body for `status`, with `message` when given. */
export function openAIError(flavour: ErrorFlavour, status: number, message?: string, param?: string) {
  return errorBody(flavour, status, 400, { message, param });
}

export interface ChatContext extends Omit<PlatformSetup, 'clock' | 'received'> {
  flavour: ErrorFlavour;
  cache: AutomaticPrefixCache;
  /** The model a request's `model` (or Azure deployment) stands for, as the ledger names it. */
  modelOf: (requested: string) => string;
}

/**
 * Answers one chat completion (sync or as a batch line): reads the prompt cache (namespace: model and
 * prompt_cache_key), bills the ledger and returns the status and body the API would.
 */
export function completeChat(context: ChatContext, raw: unknown, billing: Billing): Answered {
  const checked = parseBody(chatRequestSchema, raw);
  if (checked.issue)
    return {
      status: 400,
      body: openAIError(context.flavour, 400, checked.issue.message, checked.issue.path),
    };
  const request = checked.value;
  const prompt = chatPrompt(request);
  const answer = context.answer(prompt, request);
  if (typeof answer !== 'string')
    return { status: answer.status, body: openAIError(context.flavour, answer.status) };
  const model = context.modelOf(request.model);
  const promptTokens = context.countTokens(prompt);
  const cached = context.cache.read(`${model}\u0000${request.prompt_cache_key ?? ''}`, prompt, promptTokens);
  const outputTokens = billCachedRead(context, {
    billing,
    model,
    promptTokens,
    cachedTokens: cached,
    answer,
  });
  return {
    status: 200,
    body: {
      id: newId('chatcmpl-'),
      object: 'chat.completion',
      created: 1741570283,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: outputTokens,
        total_tokens: promptTokens + outputTokens,
        prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
      system_fingerprint: 'fp_platform',
    },
  };
}
