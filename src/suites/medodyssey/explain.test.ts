import { describe, expect, it } from 'vitest';
import { testResult as stored, testRun } from '../../../test/support/test-run.js';
import { medodysseySuite } from './suite.js';

describe('how a sample was scored', () => {
  const run = testRun({ id: 'r' });

  it('NIAH: the normalised forms each metric compared and the answer that matched', () => {
    const zh = stored({
      task: 'niah',
      params: { language: 'zh' },
      gold: { answers: ['林晚舟', '林 晚舟医生'] },
      rawOutput: '{"answer": "林 晚舟"}',
    });
    expect(medodysseySuite.explain!(zh, run)).toEqual({
      normalised: [
        { metric: 'esm', prediction: '林晚舟', gold: ['林晚舟', '林晚舟医生'] },
        { metric: 'ssm', prediction: '{"answer":"林晚舟"}', gold: ['林晚舟', '林晚舟医生'] },
      ],
      matched: { esm: '林晚舟', ssm: '林晚舟' },
    });
    const en = stored({
      task: 'niah',
      params: { language: 'en' },
      gold: { answers: ['Aspirin'] },
      rawOutput: 'I think aspirin.',
    });
    expect(medodysseySuite.explain!(en, run)).toEqual({
      normalised: [
        { metric: 'esm', prediction: '(no well-formed answer)', gold: ['aspirin'] },
        { metric: 'ssm', prediction: 'i think aspirin.', gold: ['aspirin'] },
      ],
      matched: { ssm: 'Aspirin' },
    });
  });

  it('Case: the alternative that matched', () => {
    const result = stored({
      task: 'case',
      gold: { alternatives: [['胸痛'], ['少言，焦虑一周']] },
      rawOutput: '{"result": ["少言", "焦虑一周"]}',
    });
    const explained = medodysseySuite.explain!(result, run)!;
    expect(explained.matched).toEqual({ esm: '少言，焦虑一周' });
    expect(explained.normalised![0]!.gold).toEqual(['胸痛', '少言，焦虑一周']);
  });

  it('no output (an error, too_long): nothing to explain', () => {
    expect(
      medodysseySuite.explain!(stored({ task: 'niah', gold: { answers: ['x'] }, rawOutput: null }), run),
    ).toBeNull();
  });
});
