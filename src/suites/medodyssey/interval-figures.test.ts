import { describe, expect, it } from 'vitest';
import { testResult, testRun } from '../../../test/support/test-run.js';
import type { GroupFigure } from '../../core/suite.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import type { StoredResult } from '../../store/store.js';
import { medodysseyGroupOf } from './group-figures.js';
import { METRIC_NAMES } from './medodyssey-labels.js';
import { buildMedOdysseyReport } from './medodyssey-report.js';
import { medodysseySuite } from './suite.js';

const run = testRun({ id: 'run-1', label: 'model', model: { contextWindow: 128000 }, scoringMode: 'compat' });

const result = (task: string, params: Record<string, string | number>, scores: Record<string, number>) =>
  testResult({
    runId: run.id,
    sampleId: `${task}-${JSON.stringify(params)}`,
    task,
    params: { language: 'en', ...params },
    gold: null,
    rawOutput: '',
    scores,
  });

// KG at two levels (own rules differ on some samples), Term at two levels, NIAH by needle, type and depth.
const results: StoredResult[] = [
  ...Array.from({ length: 12 }, (_, index) =>
    result(
      'kg',
      { level: index % 2 === 0 ? 4000 : 8000, index },
      {
        tp: index % 3,
        fp: index % 2,
        fn: 1,
        esm: 0,
        ssm: index % 2,
        'own.tp': (index % 3) + (index % 4 === 0 ? 1 : 0),
      },
    ),
  ),
  ...Array.from({ length: 10 }, (_, index) =>
    result('term', { level: index < 5 ? 4000 : 8000, index }, { esm: index % 3 === 0 ? 0 : 1, ssm: 1 }),
  ),
  ...Array.from({ length: 16 }, (_, index) =>
    result(
      'niah',
      {
        level: 4000,
        depth: (index % 2) * 50,
        needleId: index % 4,
        needleType: index % 4 < 2 ? 'general' : 'med',
      },
      { esm: index % 5 === 0 ? 0 : 1, ssm: index % 3 === 0 ? 0 : 1 },
    ),
  ),
];

const [ESM, SSM] = [METRIC_NAMES.esm!, METRIC_NAMES.ssm!];

const report = buildMedOdysseyReport([{ run, results }], {
  intervals: { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED },
}).runs[0]!;

/** The run page's figures of a group, as the viewer computes them. */
function figuresOf(group: string): GroupFigure[] {
  const rows = results.filter((row) => medodysseyGroupOf(row) === group);
  return medodysseySuite.figures!(rows, run);
}

function expectFigure(
  figures: GroupFigure[],
  name: string,
  cell: { value: number; lower: number; upper: number },
) {
  const figure = figures.find((item) => item.name === name);
  expect(figure, name).toBeDefined();
  expect(figure!.value, name).toBeCloseTo(cell.value, 9);
  expect(figure!.interval, name).toEqual({ lower: cell.lower, upper: cell.upper });
}

describe("the run page's figures carry the report's intervals", () => {
  it("Figures 5 and A4: each medical dataset's score per level, micro F1 for KG under ESM", () => {
    let compared = 0;
    for (const [dataset, byLevel, intervals, prefix] of [
      ['kg-en', report.medicalByLevel, report.medicalByLevelIntervals, `${ESM}: micro F1`],
      ['kg-en', report.medicalByLevelSsm, report.medicalByLevelSsmIntervals, `${SSM}: accuracy`],
      ['term-en', report.medicalByLevel, report.medicalByLevelIntervals, `${ESM}: accuracy`],
      ['term-en', report.medicalByLevelSsm, report.medicalByLevelSsmIntervals, `${SSM}: accuracy`],
    ] as const) {
      const figures = figuresOf(dataset);
      for (const [level, value] of Object.entries(byLevel[dataset]!)) {
        const interval = intervals![dataset]![level]!;
        expectFigure(figures, `${prefix}, level ${level}`, { value, ...interval });
        compared++;
      }
    }
    expect(compared).toBe(8);
  });

  it("a cell under medbench's own rules, and every main cell, with the report's interval", () => {
    const figures = figuresOf('kg-en');
    const cell = report.medical['kg-en']!.esm!;
    expect(cell.own).toBeDefined();
    for (const statistic of ['precision', 'recall', 'f1'] as const) {
      const name = statistic === 'f1' ? 'micro F1' : `micro ${statistic}`;
      expectFigure(figures, `${ESM}: ${name}`, { value: cell[statistic]!, ...cell.intervals![statistic]! });
      expectFigure(figures, `${ESM}, medbench's own rules: ${name}`, {
        value: cell.own![statistic]!,
        ...cell.own!.intervals![statistic]!,
      });
    }
    const term = report.medical['term-en']!.esm!;
    expectFigure(figuresOf('term-en'), `${ESM}: accuracy`, {
      value: term.accuracy!,
      ...term.intervals!.accuracy!,
    });
  });

  it('the NIAH error analysis: wrong answers in all, per needle type and per depth, resampled by needle', () => {
    const figures = figuresOf('niah-en');
    for (const metric of ['esm', 'ssm'] as const) {
      const table = report.niahErrors.en![metric]!;
      const intervals = report.niahErrorIntervals!.en![metric]!;
      const name = `${METRIC_NAMES[metric]}: wrong answers`;
      expectFigure(figures, name, { value: (100 * table.errors) / table.counted, ...intervals.errors });
      for (const type of ['general', 'med']) {
        const tally = table.byNeedleType[type]!;
        expectFigure(figures, `${name}, ${type} needles`, {
          value: (100 * tally.errors) / tally.counted,
          ...intervals.byNeedleType[type]!,
        });
      }
      for (const depth of ['0', '50']) {
        const tally = table.byDepth[depth]!;
        expectFigure(figures, `${name}, depth ${depth}%`, {
          value: (100 * tally.errors) / tally.counted,
          ...intervals.byDepth[depth]!,
        });
      }
      // Four needles: the interval is the bootstrap's over them, not Wilson's over 16 samples.
      expect(intervals.errors.units).toBe(4);
      const all = report.niah.en![metric]!.all;
      expectFigure(figures, `${METRIC_NAMES[metric]}: accuracy`, {
        value: (100 * all.correct) / all.counted,
        lower: 100 * all.interval!.lower,
        upper: 100 * all.interval!.upper,
      });
    }
  });
});
