import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runRetrieverContract } from '../../test/support/retriever-contract.js';
import { writeTinyOnnxModel } from '../../test/support/tiny-onnx-model.js';
import { LocalOnnxEmbeddingModel } from '../providers/local-onnx/local-onnx-embedding-model.js';
import { Bm25Retriever } from '../providers/retrievers/bm25-retriever.js';
import { LsaRetriever } from '../providers/retrievers/lsa-retriever.js';
import { DenseRetriever } from '../runner/dense-retriever.js';
import { exactSearch, exactSearchLoop } from './exact-search.js';
import { topK, topKAmong } from './top-k.js';

runRetrieverContract('BM25', () => new Bm25Retriever());
runRetrieverContract('LSA', () => new LsaRetriever({ dimensions: 4 }));
runRetrieverContract(
  'dense (local ONNX encoder + exact search)',
  () =>
    new DenseRetriever({
      model: new LocalOnnxEmbeddingModel({ folder: writeTinyOnnxModel(), pooling: 'mean' }),
      instructionTemplate: 'none',
    }),
);

/** Scores with many ties: small integers, some repeated. */
const scores = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 60 });

describe('one tie rule for every top-k', () => {
  it('topK is the first k of a full sort by score, then corpus order', () => {
    fc.assert(
      fc.property(scores, fc.integer({ min: 0, max: 70 }), (values, k) => {
        const sorted = values
          .map((score, index) => ({ score, index }))
          .sort((left, right) => right.score - left.score || left.index - right.index)
          .slice(0, k);
        expect(topK(values, k)).toEqual({
          indexes: sorted.map((entry) => entry.index),
          scores: sorted.map((entry) => entry.score),
        });
      }),
    );
  });

  it('topKAmong the touched documents equals topK over all of them', () => {
    fc.assert(
      fc.property(scores, fc.integer({ min: 0, max: 70 }), (values, k) => {
        const touched = values.flatMap((score, index) => (score > 0 ? [index] : []));
        // Any order of the touched list gives the same ranking.
        touched.reverse();
        expect(topKAmong(values, touched, touched.length, k)).toEqual(topK(values, k));
      }),
    );
  });

  it('the ONNX path and the plain loop rank alike, ties included', async () => {
    // 64 corpus rows of 4 values from {0, 1}: many exact ties; 4,000,000+ products take the ONNX path.
    const dimensions = 4;
    const corpusRows = 64;
    const corpus = Float32Array.from({ length: corpusRows * dimensions }, (_, index) =>
      (index * 7919) % 3 === 0 ? 1 : 0,
    );
    const queryRows = 16_000;
    const queries = Float32Array.from({ length: queryRows * dimensions }, (_, index) =>
      (index * 104729) % 5 === 0 ? 1 : 0,
    );
    const request = { queries, corpus, dimensions, topK: 10 };
    expect(queryRows * corpusRows * dimensions).toBeGreaterThanOrEqual(4_000_000);
    expect(await exactSearch(request)).toEqual(exactSearchLoop(request));
  });
});
