import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';
import type { ModelBinding } from './model-binding.js';
import { responseCacheKey } from './response-cache-key.js';
import { sampleRequest } from './sample-request.js';

const endpoint: ChatModel = {
  provider: 'openai-compatible',
  modelId: 'm',
  endpoint: 'http://127.0.0.1:8000/v1',
  generate: async () => ({ text: '', usage: undefined, finishReason: undefined }),
};
const model = { parameters: { temperature: 0.7, maxOutputTokens: 64, seed: 5 } } as unknown as ModelBinding;
const sample = {
  id: 'q1',
  prompt: 'Who?',
  promptTokens: {},
  generation: { maxOutputTokens: 16 },
} as unknown as Sample;

/** The response cache key of the request a run sends for `sample`. */
async function keyOf(of: Sample): Promise<{ key: string; seed: number | undefined }> {
  const request = await sampleRequest(of, endpoint, model);
  return {
    key: responseCacheKey({
      provider: endpoint.provider,
      endpoint: endpoint.endpoint,
      modelId: endpoint.modelId,
      parameters: request.keyParameters,
      messagesDigest: request.digest,
    }),
    seed: request.parameters.seed,
  };
}

describe('sampleRequest and epochs (run --epochs)', () => {
  it('epoch 1 keeps the cache key of a run without epochs (that key, computed by medbench before epochs, pinned); later epochs have their own key and seed', async () => {
    // Computed with /work/main (before epochs) for this sample and model: stored caches keep answering.
    const before = 'cc3703c4a2b86f545745a850e66c38027f51a98f1b8caf99b3bef3b4df2efca8';
    const plain = await keyOf(sample);
    expect(plain).toEqual({ key: before, seed: 5 });
    const second = await keyOf({ ...sample, id: 'q1#epoch2', epoch: { index: 2, seed: 6 } });
    const third = await keyOf({ ...sample, id: 'q1#epoch3', epoch: { index: 3, seed: 7 } });
    expect(second.seed).toBe(6);
    expect(third.seed).toBe(7);
    expect(new Set([plain.key, second.key, third.key]).size).toBe(3);
    // Without a seed (a provider that takes none), the epoch alone makes the key another.
    const unseeded = await keyOf({ ...sample, id: 'q1#epoch2', epoch: { index: 2 } });
    expect(unseeded.seed).toBe(5);
    expect(unseeded.key).not.toBe(plain.key);
  });
});
