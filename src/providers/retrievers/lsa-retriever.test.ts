import { describe, expect, it } from 'vitest';
import { LsaRetriever } from './lsa-retriever.js';

const corpus = [
  'metformin lowers blood glucose in type 2 diabetes',
  'insulin therapy for diabetes and high blood glucose',
  'warfarin prevents stroke in atrial fibrillation',
  'anticoagulation with warfarin needs INR monitoring',
  'fracture of the femur needs surgical fixation',
  'cast immobilisation for a wrist fracture',
];

describe('LSA retriever', () => {
  it('ranks topically related documents first, deterministically', async () => {
    const retriever = new LsaRetriever({ dimensions: 3 });
    const rankings = await retriever.rank({
      queries: ['diabetes glucose', 'warfarin', 'fracture surgery'],
      corpus,
      topK: 6,
    });
    expect(new Set(rankings[0]!.indexes.slice(0, 2))).toEqual(new Set([0, 1]));
    expect(new Set(rankings[1]!.indexes.slice(0, 2))).toEqual(new Set([2, 3]));
    expect(new Set(rankings[2]!.indexes.slice(0, 2))).toEqual(new Set([4, 5]));
    const again = await new LsaRetriever({ dimensions: 3 }).rank({
      queries: ['diabetes glucose'],
      corpus,
      topK: 6,
    });
    expect(again[0]).toEqual(rankings[0]);
  });

  it('works when the corpus is smaller than the requested dimensions', async () => {
    const [ranking] = await new LsaRetriever().rank({
      queries: ['warfarin'],
      corpus: corpus.slice(2, 4),
      topK: 5,
    });
    expect(ranking!.indexes).toHaveLength(2);
  });
});
