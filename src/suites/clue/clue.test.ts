import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mednliCorrect } from './answers.js';
import { longHealthChoiceOf } from './clue-tasks.js';
import { levelScore } from './level-score.js';
import { loadIcd10Codes } from './load-tasks.js';
import { averaged, postprocessOutput } from './protocols.js';

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

  it('LongHealth reads the first "The correct answer is X:" (the colon is required, as in the scripts)', () => {
    expect(
      longHealthChoiceOf('Reasoning… The correct answer is C: metformin. Later: The correct answer is D:'),
    ).toBe('C');
    expect(longHealthChoiceOf('The correct answer is B.')).toBeUndefined();
    expect(longHealthChoiceOf('I think it is B')).toBeUndefined();
    expect(longHealthChoiceOf('The correct answer is F: not in the documents')).toBe('F');
  });
});

describe('protocol rules', () => {
  it('utils.update_results counts the first item twice; repo-2025 means are plain', () => {
    // [1, 0, 0]: (1 + 1 + 0 + 0) / 4 = 0.5 with the quirk, 1/3 without.
    expect(averaged([1, 0, 0], 'first-item-twice')).toBe(0.5);
    expect(averaged([1, 0, 0], 'mean')).toBeCloseTo(1 / 3, 12);
  });

  it('post-processes outputs as the scripts did', () => {
    // Self-prompting is cut to the end of its line; the Phi end marker only for Phi models.
    expect(postprocessOutput('A question?\n[INST] next turn\nkept', 'paper', 'llama')).toBe(
      'A question?\n\nkept',
    );
    expect(postprocessOutput('Answer x <|end|> junk', 'paper', 'microsoft/Phi-3-mini')).toBe('Answer x');
    expect(postprocessOutput('Answer x <|end|> junk', 'paper', 'llama')).toBe('Answer x <|end|> junk');
    expect(postprocessOutput('  padded  ', 'paper-strip', 'llama')).toBe('padded');
    expect(postprocessOutput('You are an AI, say', 'none', 'llama')).toBe('You are an AI, say');
  });
});

describe('the ICD-10-CM code table', () => {
  it('reads the order file as it is, and adds each billable code’s category from the codes file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'medbench-icd-'));
    try {
      const order = join(folder, 'icd10cm_order_2024.txt');
      writeFileSync(
        order,
        '00001 A00     0 Cholera                                                      Cholera\n00002 A000    1 Cholera due to Vibrio cholerae 01, biovar cholerae           Cholera due to Vibrio cholerae 01, biovar cholerae\n',
      );
      expect([...loadIcd10Codes(order)].sort()).toEqual(['A00', 'A000']);
      const codes = join(folder, 'icd10cm_codes_2024.txt');
      writeFileSync(
        codes,
        'E1165   Type 2 diabetes mellitus with hyperglycemia\nI10     Essential (primary) hypertension\n',
      );
      // Categories E11 and I10 count as valid, as the icd10 package accepts them; E116 is a header
      // the codes file cannot tell.
      expect([...loadIcd10Codes(codes)].sort()).toEqual(['E11', 'E1165', 'I10']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
