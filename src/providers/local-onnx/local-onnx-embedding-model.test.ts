import { describe, expect, it } from 'vitest';
import { runEmbeddingModelContract } from '../../../test/support/embedding-model-contract.js';
import { TINY_EMBEDDINGS, writeTinyOnnxModel } from '../../../test/support/tiny-onnx-model.js';
import { LocalOnnxEmbeddingModel, truncateKeepingSpecials } from './local-onnx-embedding-model.js';

runEmbeddingModelContract('local-onnx', async () => ({
  model: new LocalOnnxEmbeddingModel({ folder: writeTinyOnnxModel(), pooling: 'mean' }),
}));

const row = (token: number) => TINY_EMBEDDINGS[token]!;
const mean = (...tokens: number[]) =>
  [0, 1, 2].map((unit) => tokens.reduce((sum, token) => sum + row(token)[unit]!, 0) / tokens.length);

describe('LocalOnnxEmbeddingModel', () => {
  it('pools CLS, mean and last token over the real tokenizer output, padding included', async () => {
    const folder = writeTinyOnnxModel();
    const values = ['Fever cough', 'rash', '发热咳 pain'];
    const pooled = async (pooling: 'cls' | 'mean' | 'last-token') =>
      (await new LocalOnnxEmbeddingModel({ folder, pooling }).embed({ values })).embeddings.map((vector) => [
        ...vector,
      ]);
    // [CLS]=2 fever=4 cough=5 [SEP]=3; rash=6; 发=8 热=9 咳=10 pain=7 (Chinese split per character)
    expect(await pooled('cls')).toEqual([row(2), row(2), row(2)]);
    expect(await pooled('last-token')).toEqual([row(3), row(3), row(3)]);
    const means = await pooled('mean');
    const expected = [mean(2, 4, 5, 3), mean(2, 6, 3), mean(2, 8, 9, 10, 7, 3)];
    means.forEach((vector, index) => {
      vector.forEach((value, unit) => {
        expect(value).toBeCloseTo(expected[index]![unit]!, 6);
      });
    });
  });

  it('truncates at the model limit and keeps the closing special token', async () => {
    const model = new LocalOnnxEmbeddingModel({
      folder: writeTinyOnnxModel({ maxLength: 4 }),
      pooling: 'last-token',
    });
    const { embeddings, usage } = await model.embed({ values: ['fever cough rash pain'] });
    expect([...embeddings[0]!]).toEqual(row(3));
    expect(usage).toEqual({ tokens: 4 });
    expect(truncateKeepingSpecials([2, 4, 5, 6, 7, 3], [4, 5, 6, 7], 4)).toEqual({
      ids: [2, 4, 5, 3],
      start: 1,
      end: 3,
    });
  });

  it('explains a folder without tokenizer files', () => {
    expect(
      () => new LocalOnnxEmbeddingModel({ folder: writeTinyOnnxModel({ withTokenizer: false }) }),
    ).toThrow(/has no tokenizer\.json/);
  });
});
