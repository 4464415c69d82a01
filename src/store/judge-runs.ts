import { StoreTable } from './store-table.js';

/** Which runs are a judge's grading of which run (`medbench judge clue`, docs/judge.md). */
export class JudgeRuns extends StoreTable {
  /** Records that `judgeRunId` grades `judgedRunId` (again: nothing changes). */
  link(judgeRunId: string, judgedRunId: string): void {
    this.beforeWrite();
    this.database()
      .prepare('INSERT OR IGNORE INTO judge_runs (judge_run_id, judged_run_id, created_at) VALUES (?, ?, ?)')
      .run(judgeRunId, judgedRunId, new Date().toISOString());
  }

  /** The judge runs that grade `judgedRunId`, oldest first. */
  of(judgedRunId: string): string[] {
    const rows = this.database()
      .prepare(
        'SELECT judge_run_id FROM judge_runs WHERE judged_run_id = ? ORDER BY created_at, judge_run_id',
      )
      .all(judgedRunId) as Array<{ judge_run_id: string }>;
    return rows.map((row) => row.judge_run_id);
  }
}
