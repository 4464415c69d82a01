import type { RunRecord } from '../core/run-record.js';
import type { SampleStatus } from '../core/sample.js';
import { generationSettingsOf } from './run-settings.js';

/** How many of a run's samples ended in each status. */
export type StatusCounts = Record<SampleStatus, number>;

/**
 * What every suite's report says of a run besides its scores: which model it was and where its
 * numbers come from, how its samples ended, and how its model generated.
 */
export interface RunSummary {
  /** The raw model id as the provider knows it (`gpt-4o`); a built-in retriever's name (`bm25`); null: unknown. */
  modelId: string | null;
  /** The provider (`openai`, `baseline`); null for a built-in retriever or an imported run without one. */
  provider: string | null;
  /** `published`: the authors' released outputs, imported; `evaluated`: run by medbench here. */
  source: 'published' | 'evaluated';
  /** How the run was scored, as stored: the published scorer's rules (`compat`) or medbench's (`standard`). */
  scoringMode: RunRecord['scoringMode'];
  /** Samples per status: answered (`ok`), no well-formed answer, too long to send, no answer. */
  statuses: StatusCounts;
  /** The generation settings stored with the run, those set only (none: an import, a retriever, a baseline). */
  settings: Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** Samples per status, every status present. */
export function statusCounts(results: ReadonlyArray<{ status: SampleStatus }>): StatusCounts {
  const counts: StatusCounts = { ok: 0, bad_format: 0, too_long: 0, error: 0 };
  for (const result of results) counts[result.status]++;
  return counts;
}

/** The run's summary, from its record and its results. */
export function runSummary(run: RunRecord, results: ReadonlyArray<{ status: SampleStatus }>): RunSummary {
  return {
    modelId: text(run.model.modelId) ?? text(run.model.retriever),
    provider: text(run.model.provider),
    source: run.source === 'imported' ? 'published' : 'evaluated',
    scoringMode: run.scoringMode,
    statuses: statusCounts(results),
    settings: generationSettingsOf(run),
  };
}
