import { describe, expect, it } from 'vitest';
import { mineTrainingExamples, trainingRows } from './mine-triples.js';

const task = {
  key: 'Dialogue_en',
  corpus: ['target', 'near miss', 'target', 'far', 'also near', 'near miss'],
  queries: [{ id: 'q0', query: 'question', targets: ['target'] }],
};

describe('mineTrainingExamples', () => {
  it('skips targets and their duplicates, dedupes, stops below the threshold and at the count', () => {
    const rankings = [{ indexes: [2, 0, 1, 5, 4, 3], scores: [0.95, 0.95, 0.9, 0.9, 0.8, 0.2] }];
    expect(mineTrainingExamples({ task, rankings, threshold: 0.5, count: 5 })).toEqual([
      { anchor: 'question', positive: 'target', negatives: ['near miss', 'also near'] },
    ]);
    expect(mineTrainingExamples({ task, rankings, threshold: 0.85, count: 5 })[0]!.negatives).toEqual([
      'near miss',
    ]);
    expect(mineTrainingExamples({ task, rankings, threshold: 0, count: 1 })[0]!.negatives).toEqual([
      'near miss',
    ]);
  });

  it('writes triplet rows and n-tuple rows as sentence-transformers reads them', () => {
    const examples = [
      { anchor: 'a', positive: 'p', negatives: ['n1', 'n2'] },
      { anchor: 'b', positive: 'q', negatives: ['m1'] },
    ];
    expect(trainingRows(examples, 'triplet', 2)).toEqual([
      { anchor: 'a', positive: 'p', negative: 'n1' },
      { anchor: 'a', positive: 'p', negative: 'n2' },
      { anchor: 'b', positive: 'q', negative: 'm1' },
    ]);
    expect(trainingRows(examples, 'n-tuple', 2)).toEqual([
      { anchor: 'a', positive: 'p', negative_1: 'n1', negative_2: 'n2' },
    ]);
  });
});
