import { describe, expect, it } from 'vitest';
import { AnthropicChatModel } from './anthropic/anthropic-chat-model.js';
import { HttpEndpoint } from './http-endpoint.js';
import { OllamaChatModel } from './ollama/ollama-chat-model.js';
import { OllamaEmbeddingModel } from './ollama/ollama-embedding-model.js';
import { OpenAICompatibleChatModel } from './openai-compatible/openai-compatible-chat-model.js';
import { OpenAICompatibleEndpoint } from './openai-compatible/openai-compatible-endpoint.js';

describe('HttpEndpoint', () => {
  it("is what Anthropic's and Ollama's adapters share with OpenAI's, without OpenAI's model list", () => {
    const anthropic = new AnthropicChatModel({ modelId: 'claude', apiKey: 'k', headers: { 'X-Team': 'a' } });
    const ollama = new OllamaChatModel({ baseURL: 'http://127.0.0.1:11434', modelId: 'm', contextWindow: 8 });
    const embedding = new OllamaEmbeddingModel({ baseURL: 'http://127.0.0.1:11434', modelId: 'm' });
    const openai = new OpenAICompatibleChatModel({ baseURL: 'http://127.0.0.1:8000/v1', modelId: 'm' });
    for (const model of [anthropic, ollama, embedding]) {
      expect(model).toBeInstanceOf(HttpEndpoint);
      expect(model).not.toBeInstanceOf(OpenAICompatibleEndpoint);
    }
    expect(openai).toBeInstanceOf(HttpEndpoint);
    expect(anthropic.endpoint).toMatch(/^https:\/\/api\.anthropic\.com/);
    expect('probe' in embedding).toBe(false);
  });
});
