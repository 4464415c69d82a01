import { describe, expect, it } from 'vitest';
import { testResult, testRun } from '../../../test/support/test-run.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, wilsonInterval } from '../../metrics/uncertainty/index.js';
import type { StoredResult } from '../../store/store.js';
import { buildMedOdysseyReport } from './medodyssey-report.js';
import { medodysseyReportSchema } from './medodyssey-report-schema.js';
import { countingAblation, renderMedOdysseyText } from './medodyssey-text.js';

const SETTINGS = { resamples: DEFAULT_RESAMPLES, seed: DEFAULT_SEED };

const run = (id: string, datasetId: string) =>
  testRun({ id, label: 'model', datasetId, model: { contextWindow: 128000 } });

/** Counting samples `from`…`to - 1` of one setting, every third wrong. */
function counting(runId: string, haystack: string, from: number, to: number): StoredResult[] {
  return Array.from({ length: to - from }, (_, offset) => {
    const index = from + offset;
    return testResult({
      runId,
      sampleId: `counting-${haystack}-${index}`,
      task: 'counting',
      params: { language: 'en', level: 1000, haystack, countingType: index % 2 === 0 ? 'repeat' : 'shuffle' },
      gold: null,
      rawOutput: '',
      scores: { esm: index % 3 === 0 ? 0 : 1, ssm: 1 },
    });
  });
}

describe("Figure 6's tallies of a model's runs merged", () => {
  it('get the interval of their merged rows: Wilson over distinct samples, shown under the row', () => {
    // The medical setting in one run, the generic one split over two runs of the same label.
    const runs = [
      {
        run: run('aaaaaa01', 'medical'),
        results: [...counting('a', 'medical', 0, 10), ...counting('a', 'generic', 0, 6)],
      },
      { run: run('bbbbbb02', 'generic'), results: counting('b', 'generic', 6, 20) },
    ];
    const report = buildMedOdysseyReport(runs, { intervals: SETTINGS });
    const [model] = countingAblation(report).models;
    const generic = model!.bySetting['generic MIC']!;
    expect(generic.all).toMatchObject({ correct: 13, counted: 20 });
    const wilson = wilsonInterval(13, 20);
    expect(generic.all.interval).toMatchObject({ method: 'wilson', units: 20 });
    expect(generic.all.interval!.lower).toBeCloseTo(wilson.lower, 12);
    expect(generic.all.interval!.upper).toBeCloseTo(wilson.upper, 12);
    const repeat = generic.byType.repeat!;
    const repeatWilson = wilsonInterval(repeat.correct, repeat.counted);
    expect(repeat.interval!.lower).toBeCloseTo(repeatWilson.lower, 12);
    // The setting of one run keeps that run's own interval.
    expect(model!.bySetting['medical MIC']!.all.interval).toEqual(
      report.runs[0]!.countingSettings['medical MIC']!.all.interval,
    );
    // The text's Figure 6 row of the merged setting has its intervals on the line under it.
    const text = renderMedOdysseyText(report, ['esm']);
    expect(text).toMatch(/generic MIC(\s+\d+\/\d+){4}\s+13\/20\n(\s+\[[\d.]+–[\d.]+%\]){3}\n/);
  });

  it('resample a sample both runs hold as one unit (the bootstrap over samples, not Wilson over rows)', () => {
    const runs = [
      {
        run: run('aaaaaa01', 'd'),
        results: [...counting('a', 'medical', 0, 4), ...counting('a', 'generic', 0, 12)],
      },
      { run: run('bbbbbb02', 'd'), results: counting('b', 'generic', 0, 12) },
    ];
    const report = buildMedOdysseyReport(runs, { intervals: SETTINGS });
    const all = countingAblation(report).models[0]!.bySetting['generic MIC']!.all;
    expect(all).toMatchObject({ correct: 16, counted: 24 });
    expect(all.interval).toMatchObject({ method: 'bootstrap', units: 12, resamples: DEFAULT_RESAMPLES });
    expect(report.countingAblationIntervals!.model!['generic MIC']!.all).toEqual(all.interval);
    // The field is the report schema's (report --json validates by it).
    expect(medodysseyReportSchema.safeParse(report).error).toBeUndefined();
  });
});
