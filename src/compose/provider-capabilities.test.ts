import { describe, expect, it } from 'vitest';
import { CHAT_PROVIDERS, type ChatEndpointOptions } from './chat-providers.js';
import type { ModelConfig } from './config.js';
import { PROVIDER_CAPABILITIES } from './provider-capabilities.js';

const options: ChatEndpointOptions = {
  baseURL: 'http://127.0.0.1:9/v1',
  modelId: 'm',
  apiKey: 'k-test',
  apiKeyEnv: 'TEST_KEY',
  completions: false,
  headers: {},
  secretHeaders: {},
  query: undefined,
  deployment: 'd',
  apiVersion: undefined,
  auth: undefined,
  project: 'p',
  location: 'europe-west4',
  region: 'eu-central-1',
  profile: undefined,
  contextWindow: 8192,
  parameters: { temperature: 0, maxOutputTokens: 16 },
};

describe('declared capabilities', () => {
  it('every chat provider has one line, and what it declares is what its adapter does', async () => {
    expect(Object.keys(PROVIDER_CAPABILITIES).sort()).toEqual(Object.keys(CHAT_PROVIDERS).sort());
    // gguf needs a model file: its adapter is tested end to end (test/e2e/gguf.test.ts).
    for (const name of Object.keys(CHAT_PROVIDERS).filter((provider) => provider !== 'gguf') as Array<
      ModelConfig['provider']
    >) {
      const model = await CHAT_PROVIDERS[name].create(options);
      const declared = PROVIDER_CAPABILITIES[name];
      const counts = model.capabilities?.countTokens === true;
      expect([name, counts]).toEqual([name, declared.tokenCounting.startsWith('route')]);
      expect([name, model.capabilities?.prefill ?? 'none']).toEqual([name, declared.prefill.split(' ')[0]]);
    }
  });
});
