import { describe, expect, it } from 'vitest';
import type { EmbeddingModel } from '../../src/core/embedding-model.js';

/** What every embedding provider must do; each provider's test file runs it. */
export function runEmbeddingModelContract(
  name: string,
  create: () => Promise<{ model: EmbeddingModel; done?: () => Promise<void> }>,
) {
  describe(`${name}: embedding model contract`, () => {
    it('declares its capabilities', async () => {
      const { model, done } = await create();
      expect(model.maxEmbeddingsPerCall).toBeGreaterThan(0);
      expect(model.maxParallelCalls).toBeGreaterThan(0);
      expect(typeof model.revision).toBe('string');
      await done?.();
    });

    it('returns one vector per input, in input order, all of one size', async () => {
      const { model, done } = await create();
      const values = ['fever and cough', '发热 咳嗽', 'fever and cough', 'rash'];
      // In batches of the declared size, as the runner sends them.
      const embeddings: Float32Array[] = [];
      for (let start = 0; start < values.length; start += model.maxEmbeddingsPerCall)
        embeddings.push(
          ...(await model.embed({ values: values.slice(start, start + model.maxEmbeddingsPerCall) }))
            .embeddings,
        );
      expect(embeddings).toHaveLength(4);
      for (const vector of embeddings) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector.length).toBe(embeddings[0]!.length);
      }
      expect([...embeddings[2]!]).toEqual([...embeddings[0]!]);
      expect([...embeddings[3]!]).not.toEqual([...embeddings[0]!]);
      const alone = await model.embed({ values: ['rash'] });
      expect([...alone.embeddings[0]!]).toEqual([...embeddings[3]!]);
      await done?.();
    });
  });
}
