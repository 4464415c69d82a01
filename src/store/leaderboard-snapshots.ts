import { createHash } from 'node:crypto';
import type { Leaderboard } from '../core/suite.js';
import { codeFingerprint } from './code-fingerprint.js';
import { parseColumn, reportDamage } from './store-damage.js';
import { StoreTable } from './store-table.js';

/**
 * Saved leaderboards: each suite's board as computed at the end of a run or an import, with
 * the key of what it came from (the code, and each run of the suite with its results_version,
 * which every write to its results moves). The viewer answers from a board whose key still
 * holds, and computes the board itself otherwise (a run in progress, an older store).
 */
export class LeaderboardSnapshots extends StoreTable {
  /** The key of a suite's leaderboard as the store is now. */
  sourceKey(suite: string): string {
    const runs = this.database()
      .prepare(
        'SELECT id, label, dataset_id, model_json, parameters_json, source, scoring_mode, results_version FROM runs WHERE suite = ? ORDER BY id',
      )
      .raw(true)
      .all(suite);
    return createHash('sha256')
      .update(codeFingerprint())
      .update(JSON.stringify([suite, runs]))
      .digest('hex');
  }

  /** The saved board, if it was computed from what `sourceKey` describes. */
  saved(suite: string, sourceKey: string): Leaderboard | undefined {
    const row = this.database()
      .prepare('SELECT source_key, board_json FROM leaderboards WHERE suite = ?')
      .get(suite) as { source_key: string; board_json: string } | undefined;
    if (!row || row.source_key !== sourceKey) return undefined;
    return parseColumn<Leaderboard>(row.board_json, () => `leaderboards.board_json of suite ${suite}`);
  }

  save(suite: string, sourceKey: string, board: Leaderboard): void {
    this.beforeWrite();
    this.database()
      .prepare(
        'INSERT INTO leaderboards (suite, source_key, board_json, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (suite) DO UPDATE SET source_key = excluded.source_key, board_json = excluded.board_json, created_at = excluded.created_at',
      )
      .run(suite, sourceKey, JSON.stringify(board), new Date().toISOString());
  }
}

reportDamage(LeaderboardSnapshots.prototype, (snapshots) => snapshots.storePath());
