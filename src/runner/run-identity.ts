import type { RunRecord } from '../core/run-record.js';
import type { ScoringMode } from '../core/task.js';
import { sha256 } from '../store/store.js';
import { canonicalJson } from './canonical-json.js';

/** Everything that determines a run's results, and nothing else (no time, no label, no path). */
export interface RunIdentity {
  /** sha256 of the samples (or queries and corpora) the run answers. */
  datasetId: string;
  /** The model, retriever or baseline: its provider, id, endpoint identity, tokenizer … never a key. */
  model: unknown;
  /** Every setting that can change a result (generation parameters, protocol, tasks …). */
  parameters: Record<string, unknown>;
  scoringMode: ScoringMode;
}

/**
 * The one recipe of a run id, for every suite, model, baseline and retriever: the same identity
 * is the same run, so re-running the same command resumes it; anything that changes a result
 * is another run.
 */
export function runIdOf(identity: RunIdentity): string {
  return sha256(
    canonicalJson({
      version: 2,
      datasetId: identity.datasetId,
      model: identity.model,
      parameters: identity.parameters,
      scoringMode: identity.scoringMode,
    }),
  ).slice(0, 16);
}

/** A new run's record: its id from its identity, and what the report shows beside it. */
export function runRecordOf(options: {
  identity: RunIdentity;
  suite: string;
  label: string;
  datasetPath: string | null;
  /** The model as reports describe it (provider, id, window, tokenizer, prices); no secrets. */
  description: Record<string, unknown>;
}): RunRecord {
  return {
    id: runIdOf(options.identity),
    suite: options.suite,
    label: options.label,
    datasetId: options.identity.datasetId,
    datasetPath: options.datasetPath,
    model: options.description,
    parameters: options.identity.parameters,
    source: 'medbench',
    scoringMode: options.identity.scoringMode,
    createdAt: new Date().toISOString(),
  };
}
