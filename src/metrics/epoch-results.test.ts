import { describe, expect, it } from 'vitest';
import type { RunRecord, StoredResult } from '../core/run-record.js';
import { epochReducerOf, reduceEpochResults } from './epoch-results.js';

const run = (epochReducers: Record<string, string>, epochs = 4): RunRecord =>
  ({ id: 'r', parameters: { temperature: 0.7, epochs, epochReducers } }) as unknown as RunRecord;

/** A stored result of one epoch: its scores, tokens and cost. */
function row(sampleId: string, task: string, scores: Record<string, number>, status = 'ok'): StoredResult {
  return {
    sampleId,
    task,
    scores,
    status,
    params: {},
    inputTokens: 10,
    outputTokens: 2,
    cost: 0.5,
  } as unknown as StoredResult;
}

/** n choose k. */
function choose(n: number, k: number): number {
  let value = 1;
  for (let index = 1; index <= k; index++) value = (value * (n - k + index)) / index;
  return value;
}

// Sample a (task mcq): right in epochs 1 and 3 of 4; sample b (task summary): graded scores.
const results = [
  row('a', 'mcq', { accuracy: 1 }),
  row('a#epoch2', 'mcq', { accuracy: 0 }, 'bad_format'),
  row('a#epoch3', 'mcq', { accuracy: 1 }),
  row('a#epoch4', 'mcq', { accuracy: 0 }),
  row('b', 'summary', { rougeL: 0.2 }),
  row('b#epoch2', 'summary', { rougeL: 0.4 }),
  row('b#epoch3', 'summary', { rougeL: 0.9 }),
  row('b#epoch4', 'summary', { rougeL: 0.5 }),
];

const scoresOf = (reducers: Record<string, string>) =>
  Object.fromEntries(
    reduceEpochResults({ run: run(reducers), results }).results.map((result) => [
      result.sampleId,
      result.scores,
    ]),
  );

describe('reduceEpochResults', () => {
  it("reduces each sample's epochs by its task's reducer, on hand-made scores", () => {
    expect(scoresOf({ mcq: 'majority', summary: 'mean' })).toEqual({
      // 1, 0, 1, 0: a tie goes to the lower score.
      a: { accuracy: 0 },
      b: { rougeL: (0.2 + 0.4 + 0.9 + 0.5) / 4 },
    });
    expect(scoresOf({ mcq: 'mean', summary: 'max' })).toEqual({ a: { accuracy: 0.5 }, b: { rougeL: 0.9 } });
    // pass@k: n = 4 epochs, c = 2 right: 1 − C(n−c, k)/C(n, k).
    for (const k of [1, 2, 3, 4])
      expect(scoresOf({ mcq: `pass@${k}`, summary: 'mean' }).a!.accuracy).toBeCloseTo(
        1 - choose(4 - 2, k) / choose(4, k),
        12,
      );
  });

  it("keeps one row per sample under the sample's id, answered when an epoch was, with every epoch's tokens and cost", () => {
    const reduced = reduceEpochResults({ run: run({ mcq: 'majority', summary: 'mean' }), results }).results;
    expect(reduced.map((result) => result.sampleId)).toEqual(['a', 'b']);
    expect(reduced[0]).toMatchObject({ status: 'ok', inputTokens: 40, outputTokens: 8, cost: 2 });
  });

  it('leaves a run of one epoch as it is, and pass@k over fewer stored epochs than k takes them all', () => {
    const single = { run: { id: 's', parameters: { temperature: 0 } } as unknown as RunRecord, results };
    expect(reduceEpochResults(single)).toBe(single);
    expect(epochReducerOf('pass@5', 3)).toEqual({ passAt: 3 });
    expect(epochReducerOf('majority', 3)).toBe('majority');
  });
});
