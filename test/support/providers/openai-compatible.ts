import type { Answer, ProviderWire } from './wire.js';
import { errorFixture, fixture, json, messagesText, tokensOf } from './wire.js';

/**
 * OpenAI's chat completion with `answer` in it (OpenAI API reference, "The chat completion
 * object"): the thinking apart as vLLM's `reasoning_content`, reasoning tokens where given as
 * OpenAI's completion_tokens_details.
 */
export function chatCompletion(base: Record<string, unknown>, answer: Answer): Record<string, unknown> {
  const { text, reasoning, inputTokens } = answer;
  const tokens = tokensOf(answer);
  const [choice] = base.choices as Array<{ message: Record<string, unknown> }>;
  choice!.message = {
    ...choice!.message,
    content: text,
    ...(reasoning ? { reasoning_content: reasoning } : {}),
  };
  return {
    ...base,
    ...(typeof answer.model === 'string' ? { model: answer.model } : {}),
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: tokens.output,
      total_tokens: inputTokens + tokens.output,
      ...cachedDetails(answer),
      ...(answer.reasoningTokens !== undefined
        ? { completion_tokens_details: { reasoning_tokens: answer.reasoningTokens } }
        : {}),
    },
  };
}

/** OpenAI's count of the prompt tokens its cache served (part of prompt_tokens), where the test gives one. */
function cachedDetails(answer: Answer): Record<string, unknown> {
  return answer.cachedTokens !== undefined
    ? { prompt_tokens_details: { cached_tokens: answer.cachedTokens } }
    : {};
}

/** The prompt of a chat or completions body. */
export function openAIPrompt(body: Record<string, unknown>): string {
  return typeof body.prompt === 'string' ? body.prompt : messagesText(undefined, body.messages);
}

/**
 * An OpenAI-compatible server (OpenAI, vLLM, a gateway) under its base URL, whatever its path
 * (OpenAI's /v1, a gateway's /openai/v1): POST {base}/chat/completions and {base}/completions, GET
 * {base}/models and {base}/models/{model}, and vLLM's POST /tokenize beside the base's /v1.
 */
export const openAICompatibleWire: ProviderWire = {
  route(method, pathname) {
    if (method === 'POST' && pathname.endsWith('/chat/completions')) return { kind: 'generate' };
    if (method === 'POST' && pathname.endsWith('/completions')) return { kind: 'generate', completion: true };
    if (method === 'POST' && pathname.endsWith('/tokenize')) return { kind: 'count' };
    if (method === 'GET' && pathname.endsWith('/models')) return { kind: 'models' };
    const model = /\/models\/([^/]+)$/.exec(pathname)?.[1];
    if (method === 'GET' && model) return { kind: 'model', model: decodeURIComponent(model) };
    return undefined;
  },
  unrouted(method, path) {
    const body = errorFixture<{ error: Record<string, unknown> }>('openai-compatible', 404, 404);
    return json(404, { error: { ...body.error, message: `Invalid URL (${method} ${path})`, code: null } });
  },
  error(status, message) {
    const body = errorFixture<{ error: Record<string, unknown> }>('openai-compatible', status, 400);
    if (message) body.error.message = message;
    return json(status, body);
  },
  prompt: (_route, body) => openAIPrompt(body),
  answer(route, answer) {
    if (!route.completion) return chatCompletion(fixture('openai-compatible', 'chat-completion'), answer);
    const base = fixture<{ choices: Array<Record<string, unknown>> }>('openai-compatible', 'completion');
    const output = tokensOf(answer).output;
    return {
      ...base,
      ...(typeof answer.model === 'string' ? { model: answer.model } : {}),
      choices: [{ ...base.choices[0], text: answer.text, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: answer.inputTokens,
        completion_tokens: output,
        total_tokens: answer.inputTokens + output,
        ...cachedDetails(answer),
      },
    };
  },
  count: (_route, tokens) => ({ ...fixture('openai-compatible', 'tokenize'), count: tokens }),
  models(route, served) {
    const [template] = fixture<{ data: Array<Record<string, unknown>> }>('openai-compatible', 'models').data;
    const data = served.map((model) => ({ ...template, ...model }));
    if (route.kind === 'models') return json(200, { object: 'list', data });
    const found = data.find((model) => model.id === route.model);
    if (found) return json(200, found);
    return this.error(404, `The model \`${route.model}\` does not exist or you do not have access to it.`);
  },
};
