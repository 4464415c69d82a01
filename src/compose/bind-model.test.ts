import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bindModel, countingProviders, modelConfigFromSpec } from './bind-model.js';
import { configSchema, loadConfig } from './config.js';

const empty = configSchema.parse({});
const folder = mkdtempSync(join(tmpdir(), 'medbench-config-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('model specs', () => {
  it('reads every spec form', () => {
    expect(modelConfigFromSpec('baseline', empty)).toEqual({ provider: 'baseline', model: 'extractive' });
    expect(modelConfigFromSpec('openai:gpt-4o', empty).endpoints).toEqual([
      { baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
    ]);
    expect(modelConfigFromSpec('anthropic:claude-3-haiku-20240307', empty).endpoints![0]!.apiKeyEnv).toBe(
      'ANTHROPIC_API_KEY',
    );
    expect(modelConfigFromSpec('openai-compatible:org/model@x@http://127.0.0.1:8000/v1', empty)).toEqual({
      provider: 'openai-compatible',
      model: 'org/model@x',
      endpoints: [{ baseURL: 'http://127.0.0.1:8000/v1' }],
    });
  });

  it('rejects specs it cannot read, with the forms it can', () => {
    for (const spec of [
      'gpt-4o',
      'openai:',
      'openai-compatible:m',
      'openai-compatible:m@ftp://x',
      'baseline:oracle',
    ]) {
      expect(() => modelConfigFromSpec(spec, empty), spec).toThrow(
        expect.objectContaining({ code: 'MODEL_SPEC_INVALID' }),
      );
    }
  });

  it('binds defaults: known window, tokenizer by model name, temperature 0, 500 output tokens', async () => {
    const binding = await bindModel({
      spec: 'openai:gpt-4o',
      config: empty,
      environment: { OPENAI_API_KEY: 'sk-1' },
    });
    expect(binding.contextWindow).toBe(128000);
    expect(binding.tokenizer?.name).toBe('o200k_base');
    expect(binding.parameters).toEqual({ temperature: 0, maxOutputTokens: 500 });
    expect(binding.endpoints[0]!.model.endpoint).toBe('https://api.openai.com/v1');
  });

  it('binds a base model to /completions, with its own provider name (and cache entries)', async () => {
    const chat = await bindModel({ spec: 'openai-compatible:m@http://127.0.0.1:1/v1', config: empty });
    const base = await bindModel({
      spec: 'openai-compatible:m@http://127.0.0.1:1/v1',
      config: empty,
      overrides: { completions: true },
    });
    expect([chat.provider, base.provider]).toEqual(['openai-compatible', 'openai-compatible-completions']);
  });

  it('requires the key of a paid API, naming its variable', async () => {
    await expect(
      bindModel({ spec: 'anthropic:claude-3-haiku-20240307', config: empty, environment: {} }),
    ).rejects.toMatchObject({
      code: 'MISSING_SECRET',
      message: expect.stringContaining('ANTHROPIC_API_KEY'),
    });
  });

  it('takes models, endpoints and overrides from the config', async () => {
    const config = configSchema.parse({
      models: {
        local: {
          provider: 'openai-compatible',
          model: 'meta-llama/Meta-Llama-3.1-8B-Instruct',
          label: 'Llama 3.1 8B',
          endpoints: [
            { baseURL: 'http://127.0.0.1:1/v1', concurrency: 3 },
            { baseURL: 'http://127.0.0.1:2/v1' },
          ],
          contextWindow: 131072,
          prices: { inputPerMillion: 1, outputPerMillion: 2 },
        },
      },
      defaults: { concurrency: 7 },
    });
    const binding = await bindModel({ spec: 'local', config, overrides: { maxOutputTokens: 64 } });
    expect(binding.label).toBe('Llama 3.1 8B');
    expect(binding.endpoints.map((endpoint) => endpoint.concurrency)).toEqual([3, 7]);
    expect(binding.tokenizer?.name).toBe('llama3');
    expect(binding.parameters.maxOutputTokens).toBe(64);
    expect(binding.prices).toEqual({ inputPerMillion: 1, outputPerMillion: 2 });
  });
});

describe('config files', () => {
  it('loads a .mjs config', async () => {
    const path = join(folder, 'medbench.config.mjs');
    writeFileSync(path, "export default { models: { b: { provider: 'baseline', model: 'extractive' } } };\n");
    const { config } = await loadConfig(path);
    expect(config.models.b).toEqual({ provider: 'baseline', model: 'extractive' });
  });

  it('names the file and field of a schema failure, and refuses keys in the file', async () => {
    const path = join(folder, 'bad.json');
    writeFileSync(
      path,
      JSON.stringify({ models: { m: { provider: 'openai', model: 'x', apiKey: 'sk-in-file' } } }),
    );
    await expect(loadConfig(path)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining(`${path}: models.m`),
    });
    writeFileSync(path, '{ not json');
    await expect(loadConfig(path)).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});

describe('countingProviders', () => {
  it("lists the providers whose descriptor declares a count route, vLLM by the route's own name", () => {
    expect(countingProviders()).toEqual([
      'vLLM',
      'Anthropic',
      'Amazon Bedrock',
      'Google Gemini API',
      'Google Vertex AI',
    ]);
  });
});
