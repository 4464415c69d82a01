import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../../../test/support/llm-test-server.js';
import { MedbenchError } from '../../core/errors.js';
import { OllamaChatModel } from './ollama-chat-model.js';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmTestServer({
    provider: 'ollama',
    fallback: () => ({ kind: 'answer', text: 'Shuweng' }),
  });
});
afterAll(() => server.close());

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Who?' },
];

async function failure(promise: Promise<unknown>): Promise<MedbenchError> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(MedbenchError.is(error)).toBe(true);
  return error as MedbenchError;
}

// Ollama API reference: POST /api/chat {model, messages, stream, options: {temperature,
// num_predict, num_ctx}} → {message: {content}, done_reason, prompt_eval_count, eval_count};
// POST /api/show {model} → {model_info: {"<arch>.context_length": n}, capabilities}.
describe('Ollama on the wire', () => {
  it('sends the window as num_ctx with greedy options, and reads the answer and its token counts', async () => {
    const model = new OllamaChatModel({ baseURL: server.url, modelId: 'llama3.1:8b', contextWindow: 32768 });
    const response = await model.generate({ messages, parameters: { temperature: 0, maxOutputTokens: 500 } });
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/api/chat');
    expect(request.body).toEqual({
      model: 'llama3.1:8b',
      messages,
      stream: false,
      options: { temperature: 0, num_predict: 500, num_ctx: 32768 },
    });
    // The server counts a token per 4 characters: "Be brief.\nWho?" is 14, "Shuweng" 7.
    expect(response).toEqual({
      text: 'Shuweng',
      usage: { inputTokens: 4, outputTokens: 2 },
      finishReason: 'stop',
      // The response's model: the one that answered, for the run's manifest.
      modelVersion: 'llama3.1:8b',
    });
  });

  it('probes /api/show for the model and its trained context length', async () => {
    const model = new OllamaChatModel({ baseURL: server.url, modelId: 'llama3.1:8b', contextWindow: 8192 });
    expect(await model.probe()).toEqual({ maxContextTokens: 131072 });
    expect(server.requests.at(-1)!).toMatchObject({ path: '/api/show', body: { model: 'llama3.1:8b' } });
  });

  it('a model not pulled fails the probe with a hint to pull it', async () => {
    const model = new OllamaChatModel({ baseURL: server.url, modelId: 'llama3.1:80b', contextWindow: 8192 });
    const error = await failure(model.probe());
    expect(error.message).toContain("model 'llama3.1:80b' not found");
    expect(error.hint).toContain('ollama pull llama3.1:80b');
  });

  it('an embedding-only model is refused as a chat model', async () => {
    server.ollamaModels['nomic-embed-text'] = { contextLength: 2048, capabilities: ['embedding'] };
    const model = new OllamaChatModel({
      baseURL: server.url,
      modelId: 'nomic-embed-text',
      contextWindow: 2048,
    });
    const error = await failure(model.probe());
    expect([error.code, error.message]).toEqual([
      'CONFIG_INVALID',
      expect.stringContaining('does not generate text (its capabilities: embedding)'),
    ]);
  });
});
