import { describe, expect, it } from 'vitest';
import { longHealthChoice, mednliCorrect } from './answers.js';
import { levelScore } from './level-score.js';

describe('CLUE level scores', () => {
  it('reproduce Table 3 from its per-metric numbers', () => {
    // Baseline row, level 1: MedNLI; Problem Summary R-L, R-1, R-2, BERT F1, UMLS F1; MeQSum R-L, R-1, R-2, BERT F1.
    const level1 = levelScore({
      mednli: { accuracy: 33.33 },
      problemSummary: { rougeL: 6.22, rouge1: 8.53, rouge2: 1.58, bertscore: 61.07, umls: 8.24 },
      meqsum: { rougeL: 14.96, rouge1: 18.99, rouge2: 7.21, bertscore: 58.62 },
    });
    expect(level1.toFixed(2)).toBe('25.13');
    const level2 = levelScore({
      longHealth: { task1: 20.0, task2: 20.0, task3: 16.66 },
      meDiSumQA: { rougeL: 13.11, rouge1: 15.76, rouge2: 2.82, bertscore: 60.22, umls: 12.74 },
      meDiSumCode: { emF1: 0.88, apF1: 3.44, validCodes: 100.0 },
    });
    expect(level2.toFixed(2)).toBe('24.86');
    // Meta-Llama-3-70B-Instruct, level 1: 52.36.
    const llama = levelScore({
      mednli: { accuracy: 79.37 },
      problemSummary: { rougeL: 25.43, rouge1: 33.16, rouge2: 13.01, bertscore: 73, umls: 29.12 },
      meqsum: { rougeL: 36.57, rouge1: 40.2, rouge2: 19.3, bertscore: 75.74 },
    });
    expect(llama.toFixed(2)).toBe('52.36');
  });

  it('leaves metrics that were not computed out of the mean', () => {
    expect(levelScore({ a: { x: 10, y: undefined }, b: { z: 30 } })).toBe(20);
  });
});

describe('answer rules', () => {
  it('MedNLI needs the gold label exactly once', () => {
    expect(mednliCorrect('The relation is entailment.', 'entailment')).toBe(true);
    expect(mednliCorrect('Not ENTAILMENT but maybe entailment', 'entailment')).toBe(false);
    expect(mednliCorrect('neutral', 'contradiction')).toBe(false);
  });

  it('LongHealth reads the first stated choice', () => {
    expect(
      longHealthChoice('Reasoning… The correct answer is C: metformin. Later: The correct answer is D'),
    ).toBe('C');
    expect(longHealthChoice('I think it is B')).toBeUndefined();
    expect(longHealthChoice('The correct answer is F: not in the documents')).toBe('F');
  });
});
