import { describe, expect, it } from 'vitest';
import { clueRun } from '../../test/support/clue-leaderboard-runs.js';
import { renderRanksHtml, renderRanksText } from '../report/rank-table.js';
import { clueSuite } from '../suites/clue/suite.js';
import { reportRanks } from './report-ranks.js';

describe('reportRanks', () => {
  it("CLUE's text and HTML leaderboard: ranked by the mean of Level 1 and Level 2, with rank intervals and the mark against the next", () => {
    // full: Level 1 63.33…, Level 2 48.33…, average 55.83…; half: every score halved, 27.92.
    const ranks = reportRanks(clueSuite, [clueRun('full', 1), clueRun('half', 0.5)], {
      resamples: 200,
      seed: 1,
    });
    expect(ranks.map((ranking) => ranking.variant)).toEqual(['levels', 'metrics']);
    const text = renderRanksText(ranks);
    expect(text).toContain('Leaderboard — levels: ranks with their 95% bootstrap intervals');
    const rows = text
      .split('\n\n')[0]!
      .split('\n')
      .filter((line) => /^(full|half)\b/.test(line));
    expect(rows.map((line) => line.split(/\s{2,}/))).toEqual([
      ['full', '1', '1', '55.8', '> next (p < 0.001)'],
      ['half', '2', '2', '27.9'],
    ]);
    expect(text).toContain(
      'Ranked by the average of mednli, problem-summary, meqsum, longhealth, medisumqa, medisumcode',
    );
    // The "Every metric" leaderboard: the mean of its eight columns, 59.4 and 29.7.
    expect(text).toContain('Leaderboard — metrics: ranks with their 95% bootstrap intervals');
    expect(text).toMatch(/^full +1 +1 +59\.4 +> next/m);
    const html = renderRanksHtml(ranks);
    expect(html).toContain('<td>half</td><td>2</td><td>2</td><td>29.7</td>');
    expect(html).toContain('<td>full</td><td>1</td><td>1</td><td>55.8</td><td>&gt; next (p &lt; 0.001)</td>');
  });
});
