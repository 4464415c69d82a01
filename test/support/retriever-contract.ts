import { describe, expect, it } from 'vitest';
import type { RankedList, Retriever } from '../../src/core/retriever.js';

/**
 * The contract every Retriever passes: for each query, min(k, corpus) results, scores never
 * increasing, equal scores in corpus order (the one tie rule of src/search/), indexes valid and
 * distinct, and the same ranking when asked twice. Duplicated corpus texts make ties certain.
 */
export function runRetrieverContract(name: string, create: () => Retriever | Promise<Retriever>): void {
  const corpus = [
    'fever and cough for three days',
    'metformin for type 2 diabetes',
    'fever and cough for three days',
    'aspirin for chest pain',
    'insulin dosing in type 1 diabetes',
    'rash after penicillin',
    'metformin for type 2 diabetes',
    '发热 咳嗽 三天',
  ];
  const queries = ['fever cough', 'diabetes metformin', 'penicillin rash', 'nothing in common xyz', ''];

  function checkRanking(ranking: RankedList, k: number): void {
    expect(ranking.indexes).toHaveLength(Math.min(k, corpus.length));
    expect(ranking.scores).toHaveLength(ranking.indexes.length);
    expect(new Set(ranking.indexes).size).toBe(ranking.indexes.length);
    for (const index of ranking.indexes)
      expect(Number.isInteger(index) && index >= 0 && index < corpus.length).toBe(true);
    for (let position = 1; position < ranking.indexes.length; position++) {
      const [before, after] = [ranking.scores[position - 1]!, ranking.scores[position]!];
      expect(Number.isFinite(after)).toBe(true);
      expect(after).toBeLessThanOrEqual(before);
      if (after === before)
        expect(ranking.indexes[position]!).toBeGreaterThan(ranking.indexes[position - 1]!);
    }
  }

  describe(`${name} retriever contract`, () => {
    it.each([1, 3, 8, 20])(
      'top %i: sizes, order, ties in corpus order, valid distinct indexes',
      async (k) => {
        const retriever = await create();
        const rankings = await retriever.rank({ queries, corpus, topK: k });
        expect(rankings).toHaveLength(queries.length);
        for (const ranking of rankings) checkRanking(ranking, k);
      },
    );

    it('identical texts score the same and keep corpus order', async () => {
      const [ranking] = await (await create()).rank({
        queries: ['metformin diabetes'],
        corpus,
        topK: corpus.length,
      });
      const first = ranking!.indexes.indexOf(1);
      const second = ranking!.indexes.indexOf(6);
      expect(ranking!.scores[first]).toBeCloseTo(ranking!.scores[second]!, 6);
      expect(first).toBeLessThan(second);
    });

    it('the same ranking when asked twice, and no queries give no rankings', async () => {
      const retriever = await create();
      const request = { queries, corpus, topK: 5 };
      expect(await retriever.rank(request)).toEqual(await retriever.rank(request));
      expect(await retriever.rank({ queries: [], corpus, topK: 5 })).toEqual([]);
    });
  });
}
