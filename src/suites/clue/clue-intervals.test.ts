import { describe, expect, it } from 'vitest';
import { testResult, testRun } from '../../../test/support/test-run.js';
import { clueUnitOf } from './clue-intervals.js';
import { buildClueReport } from './clue-report.js';

/** LongHealth task-1 answers: 3 patients × 4 questions, each patient all right or all wrong. */
const longHealth = ['p1', 'p2', 'p3'].flatMap((patient, index) =>
  [0, 1, 2, 3].map((question) =>
    testResult({
      task: 'longhealth',
      sampleId: `longhealth/task1/${patient}-q${question}/0`,
      params: { subtask: 1, question: `${patient}-q${question}`, order: index * 4 + question },
      gold: {},
      rawOutput: 'A',
      scores: { accuracy: index === 1 ? 0 : 1 },
    }),
  ),
);
const mednli = [1, 0, 1, 1, 0, 1].map((accuracy, index) =>
  testResult({ task: 'mednli', sampleId: `mednli/${index}`, gold: {}, rawOutput: 'x', scores: { accuracy } }),
);

describe('CLUE intervals', () => {
  it("cluster LongHealth by patient (the question id's prefix); other tasks by item", () => {
    expect(clueUnitOf({ task: 'longhealth', params: { question: 'patient_03-q12' } })).toBe(
      'patient patient_03',
    );
    expect(clueUnitOf({ task: 'mednli', params: { question: 'patient_03-q12' } })).toBeUndefined();
    const report = buildClueReport(
      [{ run: testRun({ id: 'r', suite: 'clue' }), results: [...longHealth, ...mednli] }],
      {
        intervals: { resamples: 500, seed: 3 },
      },
    );
    const [run] = report.runs;
    expect(run!.scores.longhealth!.task1).toBeCloseTo((100 * 8) / 12, 10);
    // 12 answers but 3 patients: the bootstrap resamples 3 units, and its bounds are on ×100.
    expect(run!.intervals!.longhealth!.task1).toMatchObject({
      method: 'bootstrap',
      units: 3,
      resamples: 500,
      seed: 3,
    });
    expect(run!.intervals!.longhealth!.task1!.lower).toBeGreaterThanOrEqual(0);
    expect(run!.intervals!.longhealth!.task1!.upper).toBeLessThanOrEqual(100);
    expect(run!.intervals!.mednli!.accuracy).toMatchObject({ method: 'wilson', units: 6 });
    // Without interval settings, a report carries none (leaderboards, the viewer's figures).
    expect(
      buildClueReport([{ run: testRun({ id: 'r', suite: 'clue' }), results: mednli }]).runs[0]!.intervals,
    ).toBeUndefined();
  });
});
