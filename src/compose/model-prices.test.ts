import { describe, expect, it } from 'vitest';
import { GEMINI_PRICING } from '../providers/gemini/gemini-pricing.js';
import { providerNamed } from '../providers/registry.js';
import { configSchema } from './config.js';
import { modelPrices } from './model-prices.js';

/** The prices a run of `model` on `provider` uses, given only `input` and `output` prices. */
function defaults(provider: string, model: string, input: number, output = 10) {
  return modelPrices(
    { inputPerMillion: input, outputPerMillion: output },
    providerNamed(provider)?.pricing,
    model,
  );
}

describe("modelPrices: the provider's documented rule fills what the config leaves out", () => {
  it('Anthropic: cache read 0.1×, 5-minute write 1.25×, batch 0.5', () => {
    expect(defaults('anthropic', 'claude-sonnet-4-20250514', 3, 15)).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cachedInputPerMillion: 0.3,
      cacheWritePerMillion: 3.75,
      batchMultiplier: 0.5,
    });
  });

  it("Bedrock: Claude as Anthropic's (an inference profile too), Nova read 0.25× with no write charge, others no cache price", () => {
    expect(defaults('bedrock', 'us.anthropic.claude-3-7-sonnet-20250219-v1:0', 3)).toMatchObject({
      cachedInputPerMillion: 0.3,
      cacheWritePerMillion: 3.75,
      batchMultiplier: 0.5,
    });
    expect(defaults('bedrock', 'amazon.nova-pro-v1:0', 0.8)).toMatchObject({
      cachedInputPerMillion: 0.2,
      cacheWritePerMillion: 0.8,
    });
    expect(defaults('bedrock', 'meta.llama3-70b-instruct-v1:0', 2.65)).toEqual({
      inputPerMillion: 2.65,
      outputPerMillion: 10,
      batchMultiplier: 0.5,
    });
  });

  it.each([
    ['gpt-4o-2024-08-06', 2.5, 1.25],
    ['gpt-4o-mini', 0.15, 0.075],
    ['gpt-4.1', 2, 0.5],
    ['gpt-4.1-nano', 0.1, 0.025],
    ['gpt-5', 1.25, 0.125],
    ['gpt-5-mini', 0.25, 0.025],
    ['o1', 15, 7.5],
    ['o3', 2, 0.5],
    ['o3-mini', 1.1, 0.55],
    ['o4-mini', 1.1, 0.275],
  ])('OpenAI %s: input %d, cached %d; no write price; batch 0.5', (model, input, cached) => {
    expect(defaults('openai', model, input)).toEqual({
      inputPerMillion: input,
      outputPerMillion: 10,
      cachedInputPerMillion: cached,
      batchMultiplier: 0.5,
    });
  });

  it('OpenAI models without a documented cached price: none assumed', () => {
    for (const model of ['o1-pro', 'o3-pro', 'gpt-4-turbo', 'gpt-3.5-turbo'])
      expect(defaults('openai', model, 10)).not.toHaveProperty('cachedInputPerMillion');
  });

  it("Azure OpenAI: OpenAI's cached share by model; vLLM's models: none, and no batch multiplier", () => {
    expect(defaults('azure-openai', 'gpt-4.1-mini', 0.4)).toMatchObject({ cachedInputPerMillion: 0.1 });
    expect(defaults('openai-compatible', 'meta-llama/Meta-Llama-3.1-8B-Instruct', 0.2)).toEqual({
      inputPerMillion: 0.2,
      outputPerMillion: 10,
    });
    expect(defaults('openai-compatible', 'openai/gpt-4o', 2.5)).toEqual({
      inputPerMillion: 2.5,
      outputPerMillion: 10,
      cachedInputPerMillion: 1.25,
    });
  });

  it('Gemini and Vertex AI: 2.5 and later 0.1×, 2.0 and 1.5 0.25×; batch 0.5', () => {
    expect(defaults('gemini', 'gemini-2.5-flash', 0.3)).toMatchObject({
      cachedInputPerMillion: 0.03,
      batchMultiplier: 0.5,
    });
    expect(defaults('vertex-ai', 'gemini-2.5-pro', 1.25)).toMatchObject({ cachedInputPerMillion: 0.125 });
    expect(defaults('gemini', 'gemini-2.0-flash', 0.1)).toMatchObject({ cachedInputPerMillion: 0.025 });
    expect(defaults('gemini', 'gemini-2.5-flash', 0.3)).not.toHaveProperty('cacheWritePerMillion');
  });

  it("Gemini's explicit-cache storage: $4.50 per million tokens an hour for Pro, $1.00 for the others; the config's wins", () => {
    expect(defaults('gemini', 'gemini-2.5-pro', 1.25)).toMatchObject({ cacheStoragePerMillionPerHour: 4.5 });
    expect(defaults('gemini', 'gemini-2.5-flash', 0.3)).toMatchObject({ cacheStoragePerMillionPerHour: 1 });
    expect(defaults('gemini', 'gemini-3-pro-preview', 2)).toMatchObject({
      cacheStoragePerMillionPerHour: 4.5,
    });
    const own = modelPrices(
      { inputPerMillion: 0.3, outputPerMillion: 2.5, cacheStoragePerMillionPerHour: 0.8 },
      GEMINI_PRICING,
      'gemini-2.5-flash',
    );
    expect(own).toMatchObject({ cacheStoragePerMillionPerHour: 0.8 });
    expect(defaults('anthropic', 'claude-sonnet-4-5', 3)).not.toHaveProperty('cacheStoragePerMillionPerHour');
  });

  it("the config's own cached, write and batch prices win; no prices stay none", () => {
    const configured = {
      inputPerMillion: 3,
      outputPerMillion: 15,
      cachedInputPerMillion: 0.5,
      cacheWritePerMillion: 6,
      batchMultiplier: 1,
    };
    expect(modelPrices(configured, providerNamed('anthropic')!.pricing, 'claude-opus-4')).toEqual(configured);
    expect(modelPrices(undefined, providerNamed('anthropic')!.pricing, 'claude-opus-4')).toBeUndefined();
    // Local servers declare no rule: nothing is added.
    expect(defaults('ollama', 'llama3.1', 0)).toEqual({ inputPerMillion: 0, outputPerMillion: 10 });
  });
});

describe('config: prices', () => {
  function issuesOf(prices: Record<string, unknown>): string[] {
    const parsed = configSchema.safeParse({
      models: { m: { provider: 'openai', model: 'gpt-4o', prices } },
    });
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  }

  it('takes the cached-read, cache-write and batch prices', () => {
    expect(
      issuesOf({
        inputPerMillion: 2.5,
        outputPerMillion: 10,
        cachedInputPerMillion: 1.25,
        cacheWritePerMillion: 2.5,
        batchMultiplier: 0.5,
      }),
    ).toEqual([]);
  });

  it('refuses a misspelt field, a negative price and a batch multiplier above 1, naming the field', () => {
    expect(issuesOf({ inputPerMillion: 1, outputPerMillion: 2, cachedPerMillion: 0.5 })).toEqual([
      'models.m.prices: Unrecognized key: "cachedPerMillion"',
    ]);
    expect(issuesOf({ inputPerMillion: 1, outputPerMillion: 2, cacheWritePerMillion: -1 })[0]).toMatch(
      /^models\.m\.prices\.cacheWritePerMillion: /,
    );
    expect(issuesOf({ inputPerMillion: 1, outputPerMillion: 2, batchMultiplier: 2 })).toEqual([
      'models.m.prices.batchMultiplier: must be at most 1: the share of the sync price a batch answer costs (0.5 for half price)',
    ]);
    expect(issuesOf({ inputPerMillion: '1', outputPerMillion: 2 })).toEqual([
      'models.m.prices.inputPerMillion: must be a number: currency units per million tokens',
    ]);
  });
});
