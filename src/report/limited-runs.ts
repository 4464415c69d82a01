import type { RunRecord } from '../core/run-record.js';
import { describeSampleLimit, type SampleLimit, sampleLimitOf } from '../core/sample-limit.js';
import { escapeHtml } from './escape-html.js';
import { withSection } from './with-section.js';

/** A run made with `--limit`: its scores are of the first samples only, not the whole set. */
export interface LimitedRun {
  runId: string;
  label: string;
  limit: SampleLimit;
  /** e.g. "limited to the first 3 of 294 samples (--limit 3)". */
  text: string;
}

/** The limited runs among `runs`, in their order. */
export function limitedRuns(runs: ReadonlyArray<{ run: RunRecord }>): LimitedRun[] {
  return runs.flatMap(({ run }) => {
    const limit = sampleLimitOf(run.parameters);
    return limit ? [{ runId: run.id, label: run.label, limit, text: describeSampleLimit(limit) }] : [];
  });
}

const lineOf = (row: LimitedRun) => `${row.label} (run ${row.runId.slice(0, 8)}): ${row.text}`;
const NOTE = 'Their scores are of those samples only, not of the whole set.';

/** The limited runs as text, or '' when none is. */
export function renderLimitedText(rows: readonly LimitedRun[]): string {
  if (rows.length === 0) return '';
  return `Limited runs\n${rows.map((row) => `  ${lineOf(row)}`).join('\n')}\n${NOTE}`;
}

/** The limited runs as an HTML section, or '' when none is. */
export function renderLimitedHtml(rows: readonly LimitedRun[]): string {
  if (rows.length === 0) return '';
  const items = rows.map((row) => `<li>${escapeHtml(lineOf(row))}</li>`).join('');
  return `<section id="limited-runs"><h2>Limited runs</h2><ul>${items}</ul><p>${escapeHtml(NOTE)}</p></section>`;
}

/** Adds the limited runs' section to a report page, before its end. */
export function withLimitedSection(html: string, rows: readonly LimitedRun[]): string {
  return withSection(html, renderLimitedHtml(rows));
}
