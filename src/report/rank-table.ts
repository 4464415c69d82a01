import type { RankEntry, RankIntervals } from '../core/scored-task.js';
import { escapeHtml } from './escape-html.js';
import { renderReportTable } from './text-table.js';
import { withSection } from './with-section.js';

const span = (entry: RankEntry) =>
  entry.lower === entry.upper ? String(entry.lower) : `${entry.lower}–${entry.upper}`;
const pText = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);
const nextText = (entry: RankEntry) =>
  entry.next ? `${entry.next.different ? '>' : '≈'} next (${pText(entry.next.p)})` : '';

/** The table's rows: the model, its rank and the rank's interval, the average in percent, the test against the next. */
function rowsOf(ranking: RankIntervals): string[][] {
  return ranking.entries.map((entry) => [
    entry.label,
    String(entry.rank),
    span(entry),
    (100 * entry.average).toFixed(1),
    nextText(entry),
  ]);
}

const HEADER = ['Model', 'Rank', 'Rank interval', 'Average', 'vs next'];
const title = (ranking: RankIntervals) =>
  `Leaderboard — ${ranking.variant}: ranks with their ${Math.round(100 * ranking.level)}% bootstrap intervals`;

/** How the intervals and marks were computed, under the table. */
function noteOf(ranking: RankIntervals): string {
  return `Ranked by the average of ${ranking.tasks.join(', ')} (percent). Rank interval: the ${Math.round(100 * ranking.level)}% interval of the rank over ${ranking.resamples} bootstrap resamples (seed ${ranking.seed}) of every task's units (NIAH: needles), the same for every model. "≈ next": not significantly different from the next model down (paired bootstrap of the two averages' difference, p ≥ ${(1 - ranking.level).toFixed(2)}); ">": significantly better.${ranking.unranked.length > 0 ? ` Not ranked (a task missing): ${ranking.unranked.length} runs.` : ''}`;
}

/** The leaderboards with rank intervals as text, or '' when there are none. */
export function renderRanksText(rankings: readonly RankIntervals[]): string {
  return rankings
    .filter((ranking) => ranking.entries.length > 0)
    .map(
      (ranking) =>
        `${renderReportTable({ title: title(ranking), header: HEADER, rows: rowsOf(ranking) })}\n${noteOf(ranking)}`,
    )
    .join('\n\n');
}

/** The same as an HTML section, or '' when there are none. */
export function renderRanksHtml(rankings: readonly RankIntervals[]): string {
  const tables = rankings
    .filter((ranking) => ranking.entries.length > 0)
    .map((ranking) => {
      const head = HEADER.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('');
      const body = rowsOf(ranking)
        .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
        .join('');
      return `<h3>${escapeHtml(title(ranking))}</h3><table class="ranks"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table><p class="note">${escapeHtml(noteOf(ranking))}</p>`;
    });
  return tables.length === 0
    ? ''
    : `<section id="rank-intervals"><h2>Leaderboards with rank intervals</h2>${tables.join('')}</section>`;
}

/** Adds the rank intervals' section to a report page, before its end. */
export function withRanksSection(html: string, rankings: readonly RankIntervals[]): string {
  return withSection(html, renderRanksHtml(rankings));
}
