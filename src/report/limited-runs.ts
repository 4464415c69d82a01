import type { RunRecord } from '../core/run-record.js';
import { describeSampleLimit, type SampleLimit, sampleLimitOf } from '../core/sample-limit.js';
import { renderRunNotesHtml, renderRunNotesText } from './run-notes.js';
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

const SECTION = {
  title: 'Limited runs',
  id: 'limited-runs',
  note: 'Their scores are of those samples only, not of the whole set.',
};

/** The limited runs as text, or '' when none is. */
export function renderLimitedText(rows: readonly LimitedRun[]): string {
  return renderRunNotesText(SECTION, rows);
}

/** The limited runs as an HTML section, or '' when none is. */
export function renderLimitedHtml(rows: readonly LimitedRun[]): string {
  return renderRunNotesHtml(SECTION, rows);
}

/** Adds the limited runs' section to a report page, before its end. */
export function withLimitedSection(html: string, rows: readonly LimitedRun[]): string {
  return withSection(html, renderLimitedHtml(rows));
}
