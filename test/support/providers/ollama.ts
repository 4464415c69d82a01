import {
  errorFixture,
  fixture,
  json,
  messagesText,
  type ProviderWire,
  tokensOf,
  type WireResponse,
} from './wire.js';

/** Ollama's errors: { "error": "…" }. */
function ollamaError(status: number, message?: string): WireResponse {
  return json(
    status,
    message ? { error: message } : errorFixture('ollama', status, status >= 500 ? 500 : 400),
  );
}

/**
 * Ollama's own API: POST /api/chat (stream: false) and POST /api/show. A model not pulled is 404
 * "model '…' not found" on both; /api/show describes a pulled one (`state.ollamaModels`).
 */
export const ollamaWire: ProviderWire = {
  route(method, pathname) {
    if (method === 'POST' && pathname === '/api/chat') return { kind: 'generate' };
    if (method === 'POST' && pathname === '/api/show') return { kind: 'show' };
    return undefined;
  },
  unrouted: () => ({ status: 404, body: '404 page not found', headers: { 'content-type': 'text/plain' } }),
  error: ollamaError,
  prompt: (_route, body) => messagesText(undefined, body.messages),
  answer(_route, answer) {
    const base = fixture('ollama', 'chat');
    return {
      ...base,
      model: answer.model,
      created_at: new Date().toISOString(),
      message: {
        role: 'assistant',
        content: answer.text,
        ...(answer.reasoning ? { thinking: answer.reasoning } : {}),
      },
      prompt_eval_count: answer.inputTokens,
      eval_count: tokensOf(answer).output,
    };
  },
  refuse(_route, request, state) {
    const name = String(request.body.model);
    if (Object.hasOwn(state.ollamaModels, name)) return undefined;
    return ollamaError(404, `model '${name}' not found`);
  },
  own(route, request, state) {
    if (route.kind !== 'show') return undefined;
    const name = String(request.body.model);
    const pulled = state.ollamaModels[name]!;
    const architecture = name.split(/[.:]/)[0]!;
    const base = fixture<{ details: Record<string, unknown> }>('ollama', 'show');
    return json(200, {
      ...base,
      details: { ...base.details, family: architecture, families: [architecture] },
      model_info: {
        'general.architecture': architecture,
        [`${architecture}.context_length`]: pulled.contextLength,
      },
      capabilities: pulled.capabilities,
    });
  },
};
