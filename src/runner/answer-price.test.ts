import { describe, expect, it } from 'vitest';
import { priceAnswer } from './answer-price.js';

// Claude Sonnet-like prices: $3 in, $15 out per million; cache read 0.30, cache write 3.75, batch 0.5.
const claude = {
  inputPerMillion: 3,
  outputPerMillion: 15,
  cachedInputPerMillion: 0.3,
  cacheWritePerMillion: 3.75,
  batchMultiplier: 0.5,
};

describe('priceAnswer', () => {
  it('no cache figures: list price is paid', () => {
    // 10,000 × 3 + 200 × 15 = 33,000 per million.
    expect(priceAnswer(claude, { inputTokens: 10_000, outputTokens: 200 }, { batch: false })).toEqual({
      cost: 0.033,
      listCost: 0.033,
    });
  });

  it('plain, cached and written input tokens each at their price', () => {
    // 1,000 plain × 3 + 8,000 cached × 0.3 + 1,000 written × 3.75 + 200 out × 15
    // = 3,000 + 2,400 + 3,750 + 3,000 = 12,150 per million; list: 10,000 × 3 + 3,000 = 33,000.
    const price = priceAnswer(
      claude,
      { inputTokens: 10_000, outputTokens: 200, cachedInputTokens: 8_000, cacheWriteTokens: 1_000 },
      { batch: false },
    );
    expect(price.cost).toBeCloseTo(0.01215, 12);
    expect(price.listCost).toBeCloseTo(0.033, 12);
  });

  it('a batch answer: the paid cost times the batch multiplier; list price unchanged', () => {
    const price = priceAnswer(
      claude,
      { inputTokens: 10_000, outputTokens: 200, cachedInputTokens: 8_000, cacheWriteTokens: 1_000 },
      { batch: true },
    );
    expect(price.cost).toBeCloseTo(0.006075, 12);
    expect(price.listCost).toBeCloseTo(0.033, 12);
  });

  it('no cached price or batch multiplier known: no discount assumed', () => {
    const plain = { inputPerMillion: 2, outputPerMillion: 8 };
    // 5,000 × 2 + 100 × 8 = 10,800 per million, cached or not, batch or not.
    const tokens = { inputTokens: 5_000, outputTokens: 100, cachedInputTokens: 4_000 };
    expect(priceAnswer(plain, tokens, { batch: true }).cost).toBeCloseTo(0.0108, 12);
    expect(priceAnswer(plain, tokens, { batch: false }).listCost).toBeCloseTo(0.0108, 12);
  });

  it('an OpenAI-style cached share (gpt-4.1: a quarter of the input price)', () => {
    const gpt41 = { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 };
    // 1,000 plain × 2 + 4,000 cached × 0.5 + 100 × 8 = 2,000 + 2,000 + 800 = 4,800; list 5,000 × 2 + 800 = 10,800.
    const price = priceAnswer(
      gpt41,
      { inputTokens: 5_000, outputTokens: 100, cachedInputTokens: 4_000 },
      { batch: false },
    );
    expect(price.cost).toBeCloseTo(0.0048, 12);
    expect(price.listCost).toBeCloseTo(0.0108, 12);
  });

  it('unknown token counts count as none', () => {
    expect(priceAnswer(claude, { inputTokens: null, outputTokens: null }, { batch: false })).toEqual({
      cost: 0,
      listCost: 0,
    });
  });
});
