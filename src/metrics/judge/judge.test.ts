import { describe, expect, it } from 'vitest';
import { readJudgeAnswer } from './judge-verdict.js';
import { juryScore } from './jury.js';
import { rubricSchema, rubricScore } from './rubric.js';

/** Positive points 5 + 3 + 2 = 10; one criterion worth −4. */
const rubric = {
  criteria: [
    { id: 'a', text: 'A', points: 5 },
    { id: 'b', text: 'B', points: 3 },
    { id: 'c', text: 'C', points: 2 },
    { id: 'd', text: 'D (must not)', points: -4 },
  ],
};

const verdicts = (met: Record<string, boolean>) =>
  JSON.stringify({ criteria: Object.entries(met).map(([id, value]) => ({ id, met: value, reason: 'r' })) });

describe('rubricScore (points met / positive points, clipped per sample)', () => {
  it('computes the hand-worked cases', () => {
    expect(rubricScore(rubric, new Set(['a', 'b']))).toEqual({
      score: 0.8,
      raw: 0.8,
      points: 8,
      possible: 10,
    });
    expect(rubricScore(rubric, new Set(['a', 'b', 'c']))).toEqual({
      score: 1,
      raw: 1,
      points: 10,
      possible: 10,
    });
    // 5 − 4 = 1 of 10.
    expect(rubricScore(rubric, new Set(['a', 'd'])).score).toBeCloseTo(0.1, 12);
    // −4 of 10: clipped to 0, the raw ratio kept.
    expect(rubricScore(rubric, new Set(['d']))).toEqual({ score: 0, raw: -0.4, points: -4, possible: 10 });
    expect(rubricScore(rubric, new Set())).toEqual({ score: 0, raw: 0, points: 0, possible: 10 });
  });
});

describe('rubricSchema', () => {
  it('refuses a criterion worth 0, a repeated id and a rubric without positive points', () => {
    const base = { task: 'meqsum', version: '1', definition: 'd' };
    const issues = (criteria: unknown) =>
      rubricSchema.safeParse({ ...base, criteria }).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues([{ id: 'a', text: 't', points: 0 }]).join()).toMatch(/worth 0 points/);
    expect(
      issues([
        { id: 'a', text: 't', points: 1 },
        { id: 'a', text: 'u', points: 2 },
      ]).join(),
    ).toMatch(/earlier criterion/);
    expect(issues([{ id: 'a', text: 't', points: -1 }]).join()).toMatch(/no criterion has positive points/);
    expect(issues([{ id: 'a', text: 't', points: 1 }])).toEqual([]);
  });
});

describe('readJudgeAnswer', () => {
  it('reads a verdict per criterion, also inside a ```json fence', () => {
    const answer = verdicts({ a: true, b: false, c: true, d: false });
    expect(readJudgeAnswer(answer, rubric)).toEqual({
      verdicts: [
        { id: 'a', met: true, reason: 'r' },
        { id: 'b', met: false, reason: 'r' },
        { id: 'c', met: true, reason: 'r' },
        { id: 'd', met: false, reason: 'r' },
      ],
    });
    expect(readJudgeAnswer(`\`\`\`json\n${answer}\n\`\`\``, rubric)).toHaveProperty('verdicts');
  });

  it('leaves malformed and off-schema answers unscored with their reason', () => {
    expect(readJudgeAnswer('{"criteria": [', rubric)).toEqual({
      unscored: expect.stringMatching(/^not JSON/),
    });
    expect(readJudgeAnswer('{"criteria":[{"id":"a","met":"yes","reason":""}]}', rubric)).toEqual({
      unscored: expect.stringMatching(/^not the verdict schema: criteria\.0\.met/),
    });
    expect(readJudgeAnswer(verdicts({ a: true, b: true }), rubric)).toEqual({
      unscored: 'no verdict for "c", "d"',
    });
    expect(readJudgeAnswer(verdicts({ a: true, b: true, c: true, d: true, e: true }), rubric)).toEqual({
      unscored: 'a verdict for "e", which the rubric does not have',
    });
    const twice = JSON.stringify({
      criteria: [...['a', 'a', 'b', 'c', 'd'].map((id) => ({ id, met: true, reason: '' }))],
    });
    expect(readJudgeAnswer(twice, rubric)).toEqual({ unscored: 'two verdicts for "a"' });
  });
});

describe('juryScore', () => {
  const met = (...ids: string[]) => ({ met: new Set(ids) });

  it('mean: the mean of the judges’ rubric scores', () => {
    // 0.8 and 0.5.
    expect(juryScore(rubric, [met('a', 'b'), met('a')], 'mean')).toEqual({ score: 0.65, judges: 2 });
  });

  it('majority: a criterion is met when more than half of the judges say so (a tie is not)', () => {
    // a: 2 of 3, b: 2 of 3, d: 1 of 3 → {a, b} = 8/10.
    expect(juryScore(rubric, [met('a', 'b'), met('a'), met('b', 'd')], 'majority')).toEqual({
      score: 0.8,
      judges: 3,
    });
    // a: 1 of 2, b: 1 of 2 → nothing met.
    expect(juryScore(rubric, [met('a'), met('b')], 'majority')).toEqual({ score: 0, judges: 2 });
  });

  it('leaves out a judge that could not score, and is unscored only when none could', () => {
    expect(juryScore(rubric, [met('a', 'b'), { unscored: 'j2: not JSON' }], 'mean')).toEqual({
      score: 0.8,
      judges: 1,
    });
    expect(juryScore(rubric, [{ unscored: 'j1: x' }, { unscored: 'j2: y' }], 'majority')).toEqual({
      unscored: 'j1: x; j2: y',
    });
  });
});
