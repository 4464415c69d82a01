import {
  errorFixture,
  fixture,
  json,
  messagesText,
  type ProviderWire,
  tokensOf,
  uncachedTokens,
} from './wire.js';

type AnthropicError = { error: { type: string; message: string } };

/**
 * Anthropic's API: POST /v1/messages, POST /v1/messages/count_tokens, GET /v1/models/{model_id};
 * errors are { type: "error", error: { type, message }, request_id } (invalid_request_error for a
 * 4XX status with no type of its own, api_error for a 5XX one).
 */
export const anthropicWire: ProviderWire = {
  route(method, pathname) {
    if (method === 'POST' && pathname === '/v1/messages') return { kind: 'generate' };
    if (method === 'POST' && pathname === '/v1/messages/count_tokens') return { kind: 'count' };
    if (method === 'GET' && pathname === '/v1/models') return { kind: 'models' };
    const model = /^\/v1\/models\/([^/]+)$/.exec(pathname)?.[1];
    if (method === 'GET' && model) return { kind: 'model', model: decodeURIComponent(model) };
    return undefined;
  },
  error(status, message) {
    const body = errorFixture<AnthropicError>('anthropic', status, status >= 500 ? 500 : 400);
    if (message) body.error.message = message;
    return json(status, body);
  },
  prompt: (_route, body) => messagesText(body.system, body.messages),
  answer(_route, answer) {
    const base = fixture('anthropic', 'message');
    return {
      ...base,
      ...(typeof answer.model === 'string' ? { model: answer.model } : {}),
      content: [
        ...(answer.reasoning
          ? [{ type: 'thinking', thinking: answer.reasoning, signature: 'EqQBCgIYAhIM' }]
          : []),
        { type: 'text', text: answer.text },
      ],
      // input_tokens: those after the last cache breakpoint; the cache's read and written apart.
      usage: {
        input_tokens: uncachedTokens(answer),
        output_tokens: tokensOf(answer).output,
        ...(answer.cachedTokens !== undefined ? { cache_read_input_tokens: answer.cachedTokens } : {}),
        ...(answer.cacheWriteTokens !== undefined
          ? { cache_creation_input_tokens: answer.cacheWriteTokens }
          : {}),
      },
    };
  },
  count: (_route, tokens) => ({ ...fixture('anthropic', 'count-tokens'), input_tokens: tokens }),
  models(route, served) {
    const described = served.map((model) => ({ ...fixture('anthropic', 'model'), id: model.id }));
    if (route.kind === 'models')
      return json(200, {
        data: described,
        has_more: false,
        first_id: described[0]?.id ?? null,
        last_id: described.at(-1)?.id ?? null,
      });
    const found = described.find((model) => model.id === route.model);
    return found ? json(200, found) : this.error(404, `model: ${route.model}`);
  },
};
