import { describe, expect, it } from 'vitest';
import type { RunRecord, StoredResult } from '../../core/run-record.js';
import { medicalScoreByLevel } from './aggregate.js';
import { effectiveLengthRow, effectiveLengths } from './effective-lengths.js';
import { renderMedOdysseyHtml } from './medodyssey-html.js';
import { buildMedOdysseyReport } from './medodyssey-report.js';
import { medodysseyReportSchema } from './medodyssey-report-schema.js';
import { renderMedOdysseyText } from './medodyssey-text.js';

type Row = Pick<StoredResult, 'task' | 'params' | 'status' | 'scores' | 'promptTokens'>;

/** NIAH rows of 20 needles at each level, the first `right[level]` needles right; prompt tokens 0.98 × the level. */
function niahRows(right: Record<number, number>, language = 'en'): Row[] {
  return Object.entries(right).flatMap(([level, count]) =>
    Array.from({ length: 20 }, (_, needle) => ({
      task: 'niah',
      params: { language, level: Number(level), depth: 50, needleId: needle, needleType: 'general' },
      status: 'ok' as const,
      scores: { esm: needle < count ? 1 : 0, ssm: 1 },
      promptTokens: Math.round(0.98 * Number(level)) + needle,
    })),
  );
}

const settings = { threshold: 85.6, fraction: 0.85 };
// 100%, 90%, 85%, 50%: RULER's 85.6 holds to 8k, NoLiMa's 85% of 100 to 16k (85 ≥ 85).
const decaying = niahRows({ 4000: 20, 8000: 18, 16000: 17, 32000: 10 });
const niah = (rows: Row[], contextWindow: number | null, intervals?: { resamples: number; seed: number }) =>
  effectiveLengthRow({
    dataset: 'En.NIAH',
    task: 'niah',
    language: 'en',
    rows,
    prf: false,
    contextWindow,
    settings,
    ...(intervals ? { intervals } : {}),
  })!;

describe('MedOdyssey effective lengths on synthetic runs', () => {
  it('RULER and NoLiMa rules on known level scores, with each level’s token length', () => {
    const row = niah(decaying, null);
    expect(row.levels.map((level) => level.score)).toEqual([100, 90, 85, 50]);
    expect(row.fixed).toMatchObject({ threshold: 85.6, passing: 2, length: 8000 });
    expect(row.fixed.interval).toBeUndefined();
    expect(row.relative).toMatchObject({ threshold: 85, passing: 3, length: 16000 });
    // 0.98 × 4000 = 3920, plus the needle index 0…19: mean 3929.5.
    expect(row.levels[0]!.tokens).toEqual({ mean: 3929.5, min: 3920, max: 3939, known: 20 });
  });

  it("a level beyond the model's window does not pass; a low shortest level gives NoLiMa a low bar", () => {
    const capped = niah(niahRows({ 4000: 20, 8000: 20, 16000: 20 }), 8000);
    expect(capped.levels.map((level) => level.score)).toEqual([100, 100, null]);
    expect(capped.fixed.length).toBe(8000);
    const weak = niah(niahRows({ 4000: 8, 8000: 7, 16000: 2 }), null);
    expect(weak.fixed).toMatchObject({ passing: 0, length: null });
    // 85% of 40 = 34: 35 passes, 10 does not.
    expect(weak.relative).toMatchObject({ threshold: 34, passing: 2, length: 8000 });
    const none = niah(niahRows({ 4000: 0, 8000: 5 }), null);
    expect(none.relative).toEqual({ threshold: null, passing: 0, length: null });
  });

  it('the interval is the bootstrap of the effective length over needles: a level at 90% can fall below 85.6', () => {
    const row = niah(decaying, null, { resamples: 300, seed: 5 });
    expect(row.fixed.interval).toMatchObject({ method: 'bootstrap', resamples: 300, seed: 5 });
    expect(row.fixed.interval).toMatchObject({ lower: 4000, upper: 16000 });
    const sure = niah(niahRows({ 4000: 20, 8000: 20, 16000: 0 }), null, { resamples: 300, seed: 5 });
    expect(sure.fixed.interval).toMatchObject({ lower: 8000, upper: 8000, lowerPassing: 2, upperPassing: 2 });
  });

  it('KG scores each level by micro F1, as Figure 5 does', () => {
    const kg: Row[] = [4000, 8000].flatMap((level, index) =>
      Array.from({ length: 5 }, (_, sample) => ({
        task: 'kg',
        params: { language: 'en', level },
        status: 'ok' as const,
        scores: { esm: 0, ssm: 0, tp: sample < 4 - 2 * index ? 2 : 0, fp: 1, fn: 1 },
        promptTokens: null,
      })),
    );
    const [row] = effectiveLengths({
      rowsOf: (task) => (task === 'kg' ? kg : []),
      contextWindow: null,
      settings,
    });
    const figure5 = medicalScoreByLevel({ results: kg, task: 'kg', language: 'en' })!;
    expect(row!.dataset).toBe('En.KG');
    expect(row!.levels.map((level) => level.score)).toEqual([figure5['4000'], figure5['8000']]);
    expect(row!.levels[0]!.tokens).toBeNull();
  });
});

describe('the report', () => {
  const run: RunRecord = {
    id: 'run-1',
    suite: 'medodyssey',
    label: 'Model A',
    datasetId: 'd',
    datasetPath: null,
    model: { contextWindow: null },
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  const results = decaying.map(
    (row, index) => ({ ...row, sampleId: `s${index}` }) as unknown as StoredResult,
  );
  const report = buildMedOdysseyReport([{ run, results }], {
    intervals: { resamples: 200, seed: 3 },
    effectiveLength: { threshold: 80, fraction: 0.5 },
  });

  it('carries both rules under the settings given, valid under the report schema', () => {
    expect(report.effectiveLength).toEqual({ threshold: 80, fraction: 0.5 });
    const [row] = report.runs[0]!.effectiveLengths;
    expect(row).toMatchObject({ dataset: 'En.NIAH', fixed: { length: 16000 }, relative: { length: 32000 } });
    expect(() => medodysseyReportSchema.parse(JSON.parse(JSON.stringify(report)))).not.toThrow();
  });

  it('prints them in text and HTML, with each level’s score and mean tokens', () => {
    const text = renderMedOdysseyText(report, ['esm']);
    expect(text).toContain(
      "Effective length: the longest level up to which every level scores ≥ 80 (RULER's rule)",
    );
    expect(text).toMatch(
      /Model A\s+En\.NIAH\s+16k \[\S+, \S+\]\s+≥32k \[\S+, \S+\]\s+100\.0 \(3,930\)\s+90\.0 \(7,850\)/,
    );
    const html = renderMedOdysseyHtml(report);
    expect(html).toContain('<h2>Effective length (RULER and NoLiMa rules)</h2>');
    // The NIAH heatmap's cells carry their 20-needle intervals: 10/20 at 32k is wide (Wilson 30–70%).
    expect(html).toContain('50% × 32k: 10/20, 95% interval 30–70%');
    expect(html).toContain('class="wide"');
  });
});
