import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReviewStore } from '../../test/support/review-store.js';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { SUITES } from '../compose/suites.js';
import { rubricScore } from '../metrics/judge/rubric.js';
import { Store } from '../store/store.js';
import { ReviewData } from './review-data.js';

const path = join(temporaryFolder('medbench-review-'), 'medbench.sqlite');
let store: Store;
const review = (reviewer: string | undefined, doubleShare = 0.2) =>
  new ReviewData(store, SUITES, { reviewer, doubleShare, seed: 'test-seed' });
/** Grades the reviewer's next MeQSum item as perfect (every positive criterion met, no negative one); returns its token. */
const gradeNext = (data: ReviewData) => {
  const { token, rubric } = data.next('clue', 'meqsum')!.item!;
  const verdicts = Object.fromEntries(
    rubric.criteria.map((criterion) => [criterion.id, criterion.points > 0]),
  );
  store.humanGrades.add(
    data.gradeOf({ suite: 'clue', task: 'meqsum', token, verdicts }, new Date().toISOString()),
  );
  return token;
};

beforeAll(() => {
  writeReviewStore(path, 4);
  store = new Store(path);
});
afterAll(() => store.close());

describe('ReviewData', () => {
  it("queues every answered item of the suite's runs: not a judge's run, not an imported run without outputs", () => {
    const overview = review(undefined).overview();
    expect(overview.reviewer).toBeNull();
    expect(overview.tasks.map((task) => task.task)).toEqual(['meqsum', 'problem-summary', 'medisumqa']);
    expect(overview.tasks[0]!.counts).toMatchObject({ items: 8, graded: 0, mine: 0 });
    // Without a reviewer: counts only, no item.
    expect(review(undefined).next('clue', 'meqsum')).toBeUndefined();
  });

  it('sends an item blinded: its token, input, reference, answer and rubric — no run id, label or metric', () => {
    const payload = review('alice').next('clue', 'meqsum')!;
    const text = JSON.stringify(payload);
    for (const hidden of ['run-model', 'model-a', 'model-b', 'rougeL', 'run-judge', 'meqsum-', '"runId"'])
      expect(text, hidden).not.toContain(hidden);
    expect(Object.keys(payload.item!).sort()).toEqual([
      'answer',
      'history',
      'input',
      'reference',
      'rubric',
      'token',
    ]);
    expect(payload.item!.input).toMatch(/^Summarise the question of consumer \d\.$/);
    expect(payload.item!.rubric.criteria.map((criterion) => criterion.id)).toContain('keeps-focus');
  });

  it("gives each reviewer their own order, and brings the double-rated share's items to a second reviewer", () => {
    const firsts = ['alice', 'bob', 'carol', 'dave', 'erin'].map(
      (name) => review(name).next('clue', 'meqsum')!.item!.token,
    );
    expect(new Set(firsts).size).toBeGreaterThan(1);
    // Every item double-rated: Bob's next is the one Alice graded; with none double-rated it never is.
    const graded = gradeNext(review('alice', 1));
    expect(review('bob', 1).next('clue', 'meqsum')!.item!.token).toBe(graded);
    expect(review('bob', 0).next('clue', 'meqsum')!.item!.token).not.toBe(graded);
    expect(review('alice', 1).next('clue', 'meqsum')!.item!.token).not.toBe(graded);
    expect(review('bob', 1).next('clue', 'meqsum')!.counts).toMatchObject({
      graded: 1,
      mine: 0,
      doubleShare: 8,
    });
    gradeNext(review('bob', 1));
    expect(review('carol', 1).overview().tasks[0]!.counts).toMatchObject({ graded: 1, doubleDone: 1 });
    expect(review('alice', 1).mine('clue', 'meqsum')!.grades).toEqual([
      { token: graded, gradedAt: expect.any(String), score: 1, grades: 1 },
    ]);
  });

  it('turns a posted body into a grade of the item, or says what is wrong with it', () => {
    const data = review('dave');
    const item = data.next('clue', 'meqsum')!.item!;
    const ids = item.rubric.criteria.map((criterion) => criterion.id);
    const verdicts = Object.fromEntries(ids.map((id, index) => [id, index % 2 === 0]));
    const body = { suite: 'clue', task: 'meqsum', token: item.token, verdicts, note: 'ok' };
    const grade = data.gradeOf(body, '2026-11-27T13:00:00.000Z');
    const met = new Set(ids.filter((_, index) => index % 2 === 0));
    expect(grade).toMatchObject({ reviewer: 'dave', task: 'meqsum', source: 'viewer', note: 'ok', verdicts });
    expect(grade.score).toBe(rubricScore({ criteria: [...item.rubric.criteria] }, met).score);
    expect(grade.rubricSha256).toMatch(/^[0-9a-f]{64}$/);
    const { [ids[0]!]: _, ...missing } = verdicts;
    for (const [bad, message] of [
      [{ ...body, task: 'mednli' }, /No reviewable task "mednli"/],
      [{ ...body, token: '0123456789abcdef' }, /No item "0123456789abcdef"/],
      [{ ...body, token: 'run-model-a' }, /token: an item token is 16 hexadecimal digits/],
      [
        { ...body, verdicts: missing },
        new RegExp(`^No verdict for criterion ${ids[0]}; mark it met or not met\\.$`),
      ],
      [{ ...body, verdicts: { ...verdicts, extra: true } }, /Not criteria of this rubric: extra/],
      [{ ...body, verdicts: { ...verdicts, [ids[0]!]: 'yes' } }, /each criterion is true \(met\) or false/],
      [{ ...body, note: 'x'.repeat(2001) }, /note: a note is at most 2000 characters/],
      [{ ...body, runId: 'run-model-a' }, /Unrecognized key/],
      [[], /the body: /],
    ] as const)
      expect(() => data.gradeOf(bad, '2026-11-27T13:00:00.000Z')).toThrow(message);
    expect(() => review(undefined).gradeOf(body, '2026-11-27T13:00:00.000Z')).toThrow(/without --reviewer/);
  });
});
