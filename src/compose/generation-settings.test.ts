import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../core/sample.js';
import { PROVIDERS } from '../providers/registry.js';
import { modelRunIdentity } from '../runner/model-binding.js';
import { responseCacheKey } from '../runner/response-cache-key.js';
import { runIdOf } from '../runner/run-identity.js';
import { sampleRequest } from '../runner/sample-request.js';
import { bindModel } from './bind-model.js';
import { configSchema, type ModelConfig } from './config.js';
import { GENERATION_SETTINGS } from './generation-settings.js';

const URL = 'http://127.0.0.1:9/v1';

function configWith(model: Record<string, unknown>) {
  return configSchema.parse({
    models: { m: { endpoints: [{ baseURL: URL }], contextWindow: 8192, ...model } },
  });
}

function bind(model: Record<string, unknown>) {
  return bindModel({ spec: 'm', config: configWith(model), environment: {} });
}

async function refusal(model: Record<string, unknown>): Promise<Error & { code: string; hint?: string }> {
  try {
    await bind(model);
  } catch (error) {
    return error as Error & { code: string; hint?: string };
  }
  throw new Error('expected a config error');
}

const sample: Sample = {
  id: 's1',
  suite: 'toy',
  task: 't',
  params: {},
  prompt: 'Who?',
  promptChars: 4,
  promptTokens: {},
  gold: null,
};

/** The run id and the first sample's cache key of a model config, as a run makes them. */
async function identities(model: Record<string, unknown>) {
  const binding = await bind(model);
  const endpoint = binding.endpoints[0]!.model;
  const request = await sampleRequest(sample, endpoint, binding);
  const runId = runIdOf({
    datasetId: 'd',
    model: modelRunIdentity(binding),
    parameters: { ...binding.parameters },
    scoringMode: 'standard',
  });
  const cacheKey = responseCacheKey({
    provider: endpoint.provider,
    endpoint: endpoint.endpoint,
    modelId: binding.modelId,
    parameters: request.keyParameters,
    messagesDigest: request.digest,
  });
  return { runId, cacheKey };
}

describe('generation settings in the config', () => {
  it('every setting makes another run and another cache key', async () => {
    const base = { provider: 'openai-compatible', model: 'm' };
    const plain = await identities(base);
    const changes: Array<Record<string, unknown>> = [
      { topP: 0.9 },
      { seed: 1 },
      { stop: ['END'] },
      { frequencyPenalty: 0.1 },
      { presencePenalty: 0.1 },
      { extraBody: { top_k: 20 } },
      { reasoningModel: true },
      { reasoningModel: true, reasoningEffort: 'high' },
    ];
    const seen = new Set([plain.runId]);
    const keys = new Set([plain.cacheKey]);
    for (const change of changes) {
      const changed = await identities({ ...base, ...change });
      seen.add(changed.runId);
      keys.add(changed.cacheKey);
    }
    expect(seen.size).toBe(changes.length + 1);
    expect(keys.size).toBe(changes.length + 1);
    // A thinking budget, on a provider that takes one.
    const claude = { provider: 'anthropic', model: 'claude-sonnet-4', endpoints: [{ baseURL: URL }] };
    const thinking = await identities({ ...claude, thinkingBudget: 2048 });
    const more = await identities({ ...claude, thinkingBudget: 4096 });
    expect(thinking.runId).not.toBe(more.runId);
    expect(thinking.cacheKey).not.toBe(more.cacheKey);
  });

  it('a model without the new settings keeps its run id (none of them is added unset)', async () => {
    const binding = await bind({ provider: 'openai-compatible', model: 'm' });
    expect(binding.parameters).toEqual({ temperature: 0, maxOutputTokens: 500 });
  });

  it('refuses a setting the provider does not take, naming it, the provider and what it takes', async () => {
    const seed = await refusal({ provider: 'anthropic', model: 'claude-sonnet-4', seed: 3 });
    expect(seed.code).toBe('CONFIG_INVALID');
    expect(seed.message).toBe('model "m" (anthropic): "seed" is not accepted by anthropic.');
    expect(seed.hint).toContain('anthropic takes topP (top_p), stop (stop_sequences)');
    const extra = await refusal({ provider: 'bedrock', model: 'amazon.nova-pro-v1:0', extraBody: { a: 1 } });
    expect(extra.message).toContain('"extraBody" is not accepted by bedrock');
    const penalty = await refusal({ provider: 'gguf', model: '/x.gguf', frequencyPenalty: 0.2 });
    expect(penalty.message).toContain('"frequencyPenalty" is not accepted by gguf');
    const thinking = await refusal({ provider: 'openai-compatible', model: 'm', thinkingBudget: 2048 });
    expect(thinking.message).toContain('"thinkingBudget" is not accepted by openai-compatible');
  });

  it('refuses an extraBody field medbench sends itself', async () => {
    const error = await refusal({ provider: 'openai-compatible', model: 'm', extraBody: { max_tokens: 9 } });
    expect(error.message).toBe(
      'model "m" (openai-compatible): extraBody sets max_tokens, which medbench sends itself.',
    );
  });

  it('knows OpenAI reasoning models by name: temperature 1, none other accepted', async () => {
    for (const name of ['o1', 'o3-mini', 'o4-mini-2025-04-16', 'gpt-5', 'gpt-5-mini']) {
      const binding = await bind({ provider: 'openai', model: name, endpoints: [{ baseURL: URL }] });
      expect(binding.parameters, name).toMatchObject({ reasoningModel: true, temperature: 1 });
    }
    for (const name of ['gpt-4o', 'gpt-5-chat-latest', 'omni-moderation-latest']) {
      const binding = await bind({ provider: 'openai', model: name, endpoints: [{ baseURL: URL }] });
      expect(binding.parameters.reasoningModel, name).toBeUndefined();
    }
    const error = await refusal({
      provider: 'azure-openai',
      model: 'o3',
      temperature: 0,
      endpoints: [{ baseURL: URL, deployment: 'o3', apiKeyEnv: 'K' }],
    });
    expect(error.message).toBe(
      'model "m" (azure-openai): "o3" is a reasoning model: it takes only the default temperature (1), not 0.',
    );
    const topP = await refusal({ provider: 'openai', model: 'gpt-5', topP: 0.5 });
    expect(topP.message).toContain('refuses "topP"');
    const completions = await refusal({ provider: 'openai', model: 'o3', api: 'completions' });
    expect(completions.message).toContain('it answers chat requests, not /completions');
    const stop = await refusal({ provider: 'openai', model: 'o3', stop: ['END'] });
    expect(stop.message).toContain('"o3" is a reasoning model: it refuses "stop".');
  });

  it('reasoningEffort needs a reasoning model; reasoningModel says so for any name', async () => {
    const error = await refusal({ provider: 'openai-compatible', model: 'm', reasoningEffort: 'low' });
    expect(error.message).toContain('"reasoningEffort" needs a reasoning model');
    const binding = await bind({
      provider: 'openai-compatible',
      model: 'm',
      reasoningModel: true,
      reasoningEffort: 'low',
    });
    expect(binding.parameters).toEqual({
      temperature: 1,
      maxOutputTokens: 500,
      reasoningModel: true,
      reasoningEffort: 'low',
    });
  });

  it('thinking takes no temperature, and Claude at least 1024 tokens of it', async () => {
    const claude: Partial<ModelConfig> = { provider: 'anthropic', model: 'claude-sonnet-4' };
    const hot = await refusal({ ...claude, thinkingBudget: 2048, temperature: 0.3 });
    expect(hot.message).toContain(
      "Claude's thinking (thinkingBudget) takes no temperature but the default (1), not 0.3",
    );
    // Its run records the temperature it uses (none is sent).
    expect((await bind({ ...claude, thinkingBudget: 2048 })).parameters.temperature).toBe(1);
    const narrow = await refusal({ ...claude, thinkingBudget: 2048, topP: 0.9 });
    expect(narrow.message).toContain('with thinking, Claude takes topP from 0.95 to 1, not 0.9.');
    const nova = await refusal({ provider: 'bedrock', model: 'amazon.nova-pro-v1:0', thinkingBudget: 2048 });
    expect(nova.message).toContain('"amazon.nova-pro-v1:0" is not a Claude model');
    const small = await refusal({ ...claude, thinkingBudget: 512 });
    expect(small.message).toContain('thinkingBudget 512 is below 1024');
    // Gemini: 0 turns thinking off; its thinking takes a temperature.
    const gemini = await bind({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      endpoints: [{}],
      thinkingBudget: 0,
      temperature: 0.4,
    });
    expect([gemini.parameters.thinkingBudget, gemini.parameters.temperature]).toEqual([0, 0.4]);
  });

  it('a baseline takes the settings and says it ignores them', async () => {
    const config = configSchema.parse({
      models: { b: { provider: 'baseline', model: 'extractive', topP: 0.5 } },
    });
    const binding = await bindModel({ spec: 'b', config, environment: {} });
    expect(binding.notice).toBe('note: b is a baseline: it generates nothing and ignores topP.');
    expect(binding.parameters.topP).toBeUndefined();
  });

  it('the schema refuses values out of range', () => {
    for (const model of [
      { topP: 0 },
      { topP: 1.5 },
      { stop: [] },
      { frequencyPenalty: 3 },
      { seed: 1.5 },
      { extraBody: [] },
    ])
      expect(
        configSchema.safeParse({ models: { m: { provider: 'openai', model: 'x', ...model } } }).success,
        JSON.stringify(model),
      ).toBe(false);
  });
});

describe('reasoningEffort on Azure OpenAI', () => {
  const bindWithKey = (model: Record<string, unknown>) =>
    bindModel({ spec: 'm', config: configWith(model), environment: { K: 'k-test' } });
  const azure = (apiVersion?: string) => ({
    provider: 'azure-openai',
    model: 'o3-mini',
    reasoningEffort: 'low',
    endpoints: [
      { baseURL: URL, deployment: 'o3-mini', apiKeyEnv: 'K', ...(apiVersion ? { apiVersion } : {}) },
    ],
  });

  it("is refused with an api-version before 2024-12-01-preview (the GA 2024-10-21 has no reasoning_effort), the default's included", async () => {
    const byDefault = await refusal(azure());
    expect(byDefault.code).toBe('CONFIG_INVALID');
    expect(byDefault.message).toBe(
      'model "m" (azure-openai): reasoningEffort goes as reasoning_effort, which Azure OpenAI\'s api-version 2024-10-21 (the default) does not have.',
    );
    expect(byDefault.hint).toContain('"apiVersion": "2024-12-01-preview"');
    expect((await refusal(azure('2024-10-01-preview'))).message).toContain(
      'api-version 2024-10-01-preview does not have',
    );
  });

  it('is taken with 2024-12-01-preview or later, and a reasoning model without it keeps the default', async () => {
    for (const version of ['2024-12-01-preview', '2025-04-01-preview', 'preview'])
      expect((await bindWithKey(azure(version))).parameters.reasoningEffort, version).toBe('low');
    const { reasoningEffort: _, ...withoutEffort } = azure();
    expect((await bindWithKey(withoutEffort)).parameters).toMatchObject({ reasoningModel: true });
  });
});

describe('extraBody keys a JavaScript object cannot hold as data', () => {
  it('refuses __proto__, constructor and prototype at any depth, naming where (JSON keeps them; a plain copy drops them)', () => {
    for (const [body, where] of [
      ['{"__proto__": {"max_tokens": 5, "model": "evil"}, "top_k": 3}', 'extraBody.__proto__'],
      ['{"options": {"constructor": 1}}', 'extraBody.options.constructor'],
      ['{"list": [{"prototype": {}}]}', 'extraBody.list.0.prototype'],
    ] as const) {
      const raw = JSON.parse(
        `{"models": {"m": {"provider": "openai-compatible", "model": "x", "extraBody": ${body}}}}`,
      );
      const parsed = configSchema.safeParse(raw);
      expect(parsed.success, body).toBe(false);
      const issue = parsed.error!.issues[0]!;
      expect(issue.path.join('.')).toBe(`models.m.${where}`);
      expect(issue.message).toBe(
        `"${where.split('.').at(-1)}" cannot be a key here: JavaScript would take it for the object's prototype or constructor, not a body field; rename or remove it.`,
      );
    }
  });
});

describe('docs/generation-settings.md', () => {
  it("states each provider's settings and field names as its descriptor does", () => {
    const page = readFileSync(join(import.meta.dirname, '../../docs/generation-settings.md'), 'utf8');
    for (const { name: provider, generationSettings: fields } of PROVIDERS) {
      const row = page.split('\n').find((line) => line.startsWith(`| ${provider} |`));
      expect(row, provider).toBeDefined();
      const cells = row!
        .split(' | ')
        .slice(1)
        .map((cell) => cell.replace(/\|$/, '').trim().replaceAll('`', ''));
      const expected = GENERATION_SETTINGS.map((setting) =>
        fields === 'ignored' ? 'ignored' : (fields[setting] ?? '—'),
      );
      expect(cells, provider).toEqual(expected);
    }
  });
});
