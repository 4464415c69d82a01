import { describe, expect, it } from 'vitest';
import { clueRun } from '../../../test/support/clue-leaderboard-runs.js';
import { rankIntervals } from '../../metrics/rank-intervals.js';
import { averagedColumns, rankRows } from '../../view/shared/leaderboard-rank.js';
import { clueScoring } from './clue-scoring.js';
import { clueSuite } from './suite.js';

const ranked = (runs: ReturnType<typeof clueRun>[]) =>
  rankIntervals(
    clueScoring,
    'levels',
    runs.map(({ run, results: rows }) => ({ runId: run.id, label: run.label, rows, counted: () => true })),
    { resamples: 200, seed: 1 },
  );

describe("CLUE's leaderboard rank intervals", () => {
  it('rank by the mean of Level 1 and Level 2, the point estimate the leaderboard prints', () => {
    const runs = [clueRun('half', 0.5), clueRun('full', 1), clueRun('paper', 1, 'paper-2024')];
    const ranking = ranked(runs);
    // By hand, "full": Level 1 = (0.75 + (0.6 + 0.7)/2 + 0.5)/3 = 0.6333…; Level 2 = ((1 + 0.5)/2 + 0.4 + 0.3)/3 = 0.4833…
    const full = ranking.entries.find((entry) => entry.runId === 'full')!;
    expect(full.average).toBeCloseTo((0.6333333333 + 0.4833333333) / 2, 8);
    // paper-2024 counts each dataset's first item twice (LongHealth excepted): MedNLI (1+1+1+1+0)/5 = 0.8 …
    const paper = ranking.entries.find((entry) => entry.runId === 'paper')!;
    const level1 = (0.8 + ((0.5 * 2 + 0.7) / 3 + (0.8 * 2 + 0.6) / 3) / 2 + (0.4 * 2 + 0.6) / 3) / 3;
    const level2 = (0.75 + (0.3 * 2 + 0.5) / 3 + (0.2 * 2 + 0.4) / 3) / 3;
    expect(paper.average).toBeCloseTo((level1 + level2) / 2, 8);
    expect(ranking.tasks).toEqual([
      'mednli',
      'problem-summary',
      'meqsum',
      'longhealth',
      'medisumqa',
      'medisumcode',
    ]);
    expect(ranking.entries.map((entry) => entry.runId)).toEqual(['full', 'paper', 'half']);
    // The leaderboard's (the viewer's) average of its Level columns is the same number.
    const board = clueSuite.leaderboard(runs);
    const rows = rankRows(board.rows, 'levels', averagedColumns(board.rows, 'levels', ['level1', 'level2']));
    for (const entry of ranking.entries)
      expect(rows.find(({ row }) => row.runId === entry.runId)!.average).toBeCloseTo(100 * entry.average, 8);
    // "full" and "paper" score the same items, weighted apart: 1–2 both, not told apart; "half",
    // every score of "full" halved, is last on every resample.
    expect(ranking.entries.map(({ lower, upper, next }) => [lower, upper, next?.different])).toEqual([
      [1, 2, false],
      [1, 2, true],
      [3, 3, undefined],
    ]);
  });

  it('average only the levels some run completes; a run missing one of their datasets is not ranked', () => {
    const levelOne = (run: ReturnType<typeof clueRun>) => ({
      ...run,
      results: run.results.filter((row) => ['mednli', 'problem-summary', 'meqsum'].includes(row.task)),
    });
    const partial = levelOne(clueRun('partial', 1));
    partial.results = partial.results.filter((row) => row.task !== 'meqsum');
    const ranking = ranked([levelOne(clueRun('a', 1)), levelOne(clueRun('b', 0.5)), partial]);
    expect(ranking.tasks).toEqual(['mednli', 'problem-summary', 'meqsum']);
    expect(ranking.entries.find((entry) => entry.runId === 'a')!.average).toBeCloseTo(0.6333333333, 8);
    expect(ranking.unranked).toEqual(['partial']);
  });

  it("leave the judge's score (medbench judge) out of the levels", () => {
    const judged = clueRun('judged', 1);
    judged.results = judged.results.map((row) =>
      row.task === 'meqsum' ? { ...row, scores: { ...row.scores, judge: 1 } } : row,
    );
    const ranking = ranked([judged, clueRun('full', 1)]);
    const averages = ranking.entries.map((entry) => entry.average);
    expect(averages[0]).toBeCloseTo((0.6333333333 + 0.4833333333) / 2, 8);
    expect(averages[1]).toBeCloseTo(averages[0]!, 12);
    expect(clueSuite.leaderboard([judged]).rows[0]!.values.levels!.level1).toBeCloseTo(63.33333333, 6);
  });

  it('the "Every metric" leaderboard: ranked by the mean of every metric column, as the leaderboard averages them', () => {
    const runs = [clueRun('half', 0.5), clueRun('full', 1)];
    const ranking = rankIntervals(
      clueScoring,
      'metrics',
      runs.map(({ run, results: rows }) => ({ runId: run.id, label: run.label, rows, counted: () => true })),
      { resamples: 200, seed: 1 },
    );
    // By hand, "full": MedNLI 0.75, PS R-L 0.6, PS R-1 0.7, MeQSum 0.5, LH Task 1 1, LH Task 2 0.5,
    // MDSQA 0.4, MDSC EM F1 0.3: 4.75 / 8 = 0.59375; "half" 0.296875.
    expect(ranking.tasks).toEqual([
      'mednli accuracy',
      'longhealth task1',
      'longhealth task2',
      'meqsum rougeL',
      'problem-summary rouge1',
      'problem-summary rougeL',
      'medisumqa rougeL',
      'medisumcode emF1',
    ]);
    expect(ranking.entries.map((entry) => [entry.runId, entry.average, entry.lower, entry.upper])).toEqual([
      ['full', expect.closeTo(0.59375, 12), 1, 1],
      ['half', expect.closeTo(0.296875, 12), 2, 2],
    ]);
    const board = clueSuite.leaderboard(runs);
    const columns = board.variants
      .find((variant) => variant.key === 'metrics')!
      .columns.map((column) => column.key);
    const rows = rankRows(board.rows, 'metrics', averagedColumns(board.rows, 'metrics', columns));
    for (const entry of ranking.entries)
      expect(rows.find(({ row }) => row.runId === entry.runId)!.average).toBeCloseTo(100 * entry.average, 8);
  });

  it('its leaderboards rank by the levels and by every metric; compare keeps the primary metrics first', () => {
    expect(clueScoring.variants).toEqual(['primary', 'levels', 'metrics']);
    expect(clueScoring.leaderboards).toEqual(['levels', 'metrics']);
  });
});
