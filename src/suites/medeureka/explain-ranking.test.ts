import { describe, expect, it } from 'vitest';
import { testResult as stored, testRun } from '../../../test/support/test-run.js';
import { medeurekaSuite } from './suite.js';

describe('a retrieval sample explained', () => {
  const run = testRun({ id: 'r', suite: 'medeureka' });

  it('MedEureka: the top texts with rank, score and whether each is a target', () => {
    const result = stored({
      task: 'AskAPatient_en',
      gold: { targets: ['Insomnia'] },
      rawOutput: null,
      parsed: { indexes: [4, 1], scores: [2.5, 1.25], topTexts: ['Headache', 'Insomnia'] },
    });
    expect(medeurekaSuite.explain!(result, run)).toEqual({
      retrieved: [
        { rank: 1, text: 'Headache', score: 2.5, relevant: false },
        { rank: 2, text: 'Insomnia', score: 1.25, relevant: true },
      ],
    });
  });
});
