import { describe, expect, it } from 'vitest';
import { Bm25Retriever } from './bm25-retriever.js';
import { wordTokens } from './word-tokens.js';

describe('BM25 retriever', () => {
  it('scores a tiny corpus as computed by hand', async () => {
    // corpus: d0 "aspirin pain" (2 tokens), d1 "aspirin fever fever" (3), d2 "insulin" (1); avgdl = 2.
    // query "fever": n = 1 → idf = ln(1 + (3 − 1 + 0.5)/(1 + 0.5)) = ln(8/3).
    // d1: f = 2, |d| = 3 → norm = 1.5·(0.25 + 0.75·3/2) = 2.0625; score = idf·2·2.5/(2 + 2.0625) = idf·5/4.0625.
    const [ranking] = await new Bm25Retriever().rank({
      queries: ['fever'],
      corpus: ['aspirin pain', 'aspirin fever fever', 'insulin'],
      topK: 3,
    });
    expect(ranking!.indexes[0]).toBe(1);
    expect(ranking!.scores[0]).toBeCloseTo((Math.log(8 / 3) * 5) / 4.0625, 12);
    expect(ranking!.scores.slice(1)).toEqual([0, 0]);
    expect(ranking!.indexes.slice(1)).toEqual([0, 2]); // ties by corpus order
  });

  it('gives plain ASCII text the same tokens as ICU word segmentation', () => {
    const icu = new Intl.Segmenter('zh', { granularity: 'word' });
    for (const text of [
      "Don't stop: COVID-19 e.g. 3.5 mg/kg, a_b (x2)... end",
      'Fever, cough; rash!  Twice-daily   dosing',
      'ALT 3,000 U/L at 10:30 vs. 2.1',
    ]) {
      const expected = [...icu.segment(text.toLowerCase())]
        .filter((piece) => piece.isWordLike)
        .map((piece) => piece.segment);
      expect(wordTokens(text)).toEqual(expected);
    }
  });

  it('breaks ties by corpus order and fills with unmatched documents', async () => {
    const [ranking] = await new Bm25Retriever().rank({
      queries: ['cough'],
      corpus: ['rash', 'cough', 'fever', 'cough', 'pain'],
      topK: 4,
    });
    expect(ranking!.indexes).toEqual([1, 3, 0, 2]);
    expect(ranking!.scores.slice(2)).toEqual([0, 0]);
  });

  it('segments Chinese into words', async () => {
    expect(wordTokens('糖尿病患者的血糖控制')).toEqual(['糖尿病', '患者', '的', '血糖', '控制']);
    const [ranking] = await new Bm25Retriever().rank({
      queries: ['糖尿病患者如何控制血糖？'],
      corpus: ['高血压患者的饮食', '糖尿病患者的血糖控制方法', '骨折的处理'],
      topK: 2,
    });
    expect(ranking!.indexes[0]).toBe(1);
  });
});
