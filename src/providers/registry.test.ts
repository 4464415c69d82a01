import { describe, expect, it } from 'vitest';
import type { ChatFactoryOptions } from './provider-descriptor.js';
import { PROVIDERS, type ProviderRegistry, providersWith } from './registry.js';

const options: ChatFactoryOptions = {
  baseURL: 'http://127.0.0.1:9/v1',
  modelId: 'm',
  apiKey: 'k-test',
  apiKeyEnv: 'TEST_KEY',
  completions: false,
  headers: {},
  secretHeaders: {},
  query: undefined,
  settings: { deployment: 'd', project: 'p', location: 'europe-west4', region: 'eu-central-1' },
  contextWindow: 8192,
  parameters: { temperature: 0, maxOutputTokens: 16 },
};

describe('the provider registry', () => {
  it('names each provider once', () => {
    const names = PROVIDERS.map((provider) => provider.name);
    expect(new Set(names).size).toBe(names.length);
    expect(() => providersWith([{ ...PROVIDERS[0], spec: { ...PROVIDERS[0].spec } }])).toThrow(
      'A provider named "openai-compatible" is registered already.',
    );
  });

  it('what each descriptor declares is what its adapter does', async () => {
    // gguf needs a model file: its adapter is tested end to end (test/e2e/gguf.test.ts).
    for (const provider of (PROVIDERS as ProviderRegistry).filter(({ name }) => name !== 'gguf')) {
      const model = await provider.createChat(options);
      const declared = provider.capabilities;
      const counts = model.capabilities?.countTokens === true;
      expect([provider.name, counts]).toEqual([provider.name, declared.tokenCounting.startsWith('route')]);
      expect([provider.name, model.capabilities?.prefill ?? 'none']).toEqual([
        provider.name,
        declared.prefill.split(' ')[0],
      ]);
    }
  });

  it('each spec form reads back as its provider', () => {
    const examples: Record<string, string> = {
      'openai-compatible': 'openai-compatible:llama@http://127.0.0.1:8000/v1',
      openai: 'openai:gpt-4o',
      anthropic: 'anthropic:claude-sonnet-4-5',
      bedrock: 'bedrock:anthropic.claude-3-haiku@eu-central-1',
      gemini: 'gemini:gemini-2.5-flash',
      'vertex-ai': 'vertex-ai:gemini-2.5-flash@my-project/europe-west4',
      ollama: 'ollama:llama3.1',
      gguf: 'gguf:/models/tiny.gguf',
      baseline: 'baseline:extractive',
    };
    for (const provider of PROVIDERS.filter(({ name }) => name !== 'azure-openai')) {
      const spec = examples[provider.name]!;
      expect(provider.spec.parse(spec.slice(provider.name.length + 1))?.provider).toBe(provider.name);
    }
    expect(PROVIDERS.find(({ name }) => name === 'azure-openai')!.spec.parse('d')).toBeUndefined();
  });
});
