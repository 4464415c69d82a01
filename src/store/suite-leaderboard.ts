import type { StoredResult } from '../core/run-record.js';
import type { Leaderboard, Suite } from '../core/suite.js';
import type { Store } from './store.js';

/**
 * A suite's leaderboard: the one saved in the store while what it was computed from still holds
 * (a few milliseconds), else computed from every result of the suite's runs, and saved when
 * `save` (run and import commands save; the read-only viewer does not). Key and rows are read in
 * one transaction, so a board is never saved under the key of another state of the store.
 */
export function suiteLeaderboard(store: Store, suite: Suite, options: { save?: boolean } = {}): Leaderboard {
  const computed = store.transaction(() => {
    const key = store.leaderboards.sourceKey(suite.name);
    const saved = store.leaderboards.saved(suite.name, key);
    if (saved) return { board: saved, key, fresh: false };
    const runs = store.listRuns({ suite: suite.name });
    // Leaderboards read only task, params, status and scores: the light rows stand in for results.
    const board = suite.leaderboard(
      runs.map((run) => ({ run, results: store.aggregateRows(run.id) as unknown as StoredResult[] })),
    );
    return { board, key, fresh: true };
  });
  if (computed.fresh && options.save) store.leaderboards.save(suite.name, computed.key, computed.board);
  return computed.board;
}
