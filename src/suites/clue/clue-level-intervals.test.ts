import { describe, expect, it } from 'vitest';
import { clueRun } from '../../../test/support/clue-leaderboard-runs.js';
import { renderReportTable } from '../../report/text-table.js';
import { buildClueReport, clueTables, renderClueHtml } from './clue-report.js';
import { clueReportSchema } from './clue-report-schema.js';

const intervals = { resamples: 200, seed: 1 };

describe("CLUE's level scores with their 95% intervals", () => {
  it('--json: Level 1 and Level 2 each with a stratified bootstrap interval around the printed score', () => {
    const report = buildClueReport([clueRun('full', 1)], { intervals });
    const run = clueReportSchema.parse(JSON.parse(JSON.stringify(report))).runs[0]!;
    // By hand: Level 1 = (0.75 + 0.65 + 0.5)/3 = 63.33; Level 2 = (0.75 + 0.4 + 0.3)/3 = 48.33.
    expect(run.level1).toBeCloseTo(63.3333, 3);
    const { level1, level2 } = run.levelIntervals!;
    expect(level1).toMatchObject({ method: 'bootstrap', resamples: 200, seed: 1, units: 8 });
    expect(level1!.lower).toBeLessThan(run.level1!);
    expect(level1!.upper).toBeGreaterThan(run.level1!);
    expect(level2!.lower).toBeLessThan(run.level2!);
    // Without the other level's datasets: no Level 2, and no interval for it.
    const levelOne = clueRun('one', 1);
    levelOne.results = levelOne.results.filter((row) =>
      ['mednli', 'problem-summary', 'meqsum'].includes(row.task),
    );
    expect(buildClueReport([levelOne], { intervals }).runs[0]!.levelIntervals).toMatchObject({
      level2: null,
    });
    expect(buildClueReport([clueRun('full', 1)]).runs[0]!.levelIntervals).toBeUndefined();
  });

  it('text and HTML: every score cell of Table 3 with its interval under it, the level score too', () => {
    const report = buildClueReport([clueRun('full', 1)], { intervals });
    const { level1 } = report.runs[0]!.levelIntervals!;
    const text = renderReportTable(clueTables(report)[0]!);
    const [values, bounds] = text.split('\n').slice(3);
    expect(values!.trim().split(/\s+/).slice(0, 3)).toEqual(['full', '63.33*', '75.00']);
    const shown = `[${level1!.lower.toFixed(1)}–${level1!.upper.toFixed(1)}]`;
    expect(bounds!.trim().split(/\s+/)[0]).toBe(shown);
    // MedNLI: 3 of 4 right, Wilson [30.1, 95.4].
    expect(bounds!.trim().split(/\s+/)[1]).toBe('[30.1–95.4]');
    expect(renderClueHtml(report)).toContain(`<td>63.33*<br><span class="ci">${shown}</span></td>`);
    const plain = renderReportTable(clueTables(buildClueReport([clueRun('full', 1)]))[0]!);
    expect(plain).not.toContain('[');
  });
});
