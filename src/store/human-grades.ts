import { sha256 } from './prepared-prompt.js';
import { parseColumn } from './store-damage.js';
import { StoreTable } from './store-table.js';

/** Where a grade came from: the viewer's review page, or a CSV file (`medbench import grades`). */
export type GradeSource = 'viewer' | 'csv';

/** A person's grade of one answer against a rubric, criterion by criterion (docs/review.md). */
export interface HumanGrade {
  /**
   * SHA-256 over what the grade says — every other field but `source`: the same grade imported
   * twice, merged from two stores, or exported from the viewer and imported back, is one row.
   */
  id: string;
  runId: string;
  sampleId: string;
  task: string;
  reviewer: string;
  /** The rubric graded by: its version and the SHA-256 of its content. */
  rubricVersion: string;
  rubricSha256: string;
  /** Every criterion of the rubric, met or not. */
  verdicts: Readonly<Record<string, boolean>>;
  /** The rubric score of the verdicts (points met over positive points, clipped to [0, 1]), as the judge's. */
  score: number;
  note: string;
  /** ISO time of the grade. */
  gradedAt: string;
  source: GradeSource;
}

export interface GradeFilter {
  task?: string;
  runId?: string;
  sampleId?: string;
  reviewer?: string;
}

interface GradeRow {
  id: string;
  run_id: string;
  sample_id: string;
  task: string;
  reviewer: string;
  rubric_version: string;
  rubric_sha256: string;
  verdicts_json: string;
  score: number;
  note: string;
  graded_at: string;
  source: GradeSource;
}

/**
 * The id of a grade: a digest of what it says, so that adding it again changes nothing. Where it
 * came from (`source`) is left out: a viewer grade exported and imported back is the same grade,
 * and the first stored keeps its source.
 */
export function gradeId(grade: Omit<HumanGrade, 'id'>): string {
  const verdicts = Object.fromEntries(Object.entries(grade.verdicts).sort(([a], [b]) => a.localeCompare(b)));
  return sha256(
    JSON.stringify([
      grade.runId,
      grade.sampleId,
      grade.task,
      grade.reviewer,
      grade.rubricVersion,
      grade.rubricSha256,
      verdicts,
      grade.score,
      grade.note,
      grade.gradedAt,
    ]),
  );
}

/**
 * People's grades of stored answers (the viewer's review queue, `import grades`): every grade is
 * kept, an edit is a new grade of the same item by the same reviewer, so the history of each is
 * there to read; a reviewer's current grade of an item is their latest.
 */
export class HumanGrades extends StoreTable {
  /** Stores a grade (again, from any source: nothing changes) and returns it with its id. */
  add(grade: Omit<HumanGrade, 'id'>): HumanGrade {
    this.beforeWrite();
    const stored = { ...grade, id: gradeId(grade) };
    this.database()
      .prepare(
        `INSERT OR IGNORE INTO human_grades (id, run_id, sample_id, task, reviewer, rubric_version, rubric_sha256,
           verdicts_json, score, note, graded_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        stored.id,
        stored.runId,
        stored.sampleId,
        stored.task,
        stored.reviewer,
        stored.rubricVersion,
        stored.rubricSha256,
        JSON.stringify(stored.verdicts),
        stored.score,
        stored.note,
        stored.gradedAt,
        stored.source,
      );
    return stored;
  }

  /** Every grade matching `filter`, edits included, oldest first (by time, then id). */
  history(filter: GradeFilter = {}): HumanGrade[] {
    const clauses: string[] = [];
    const values: string[] = [];
    for (const [column, value] of [
      ['task', filter.task],
      ['run_id', filter.runId],
      ['sample_id', filter.sampleId],
      ['reviewer', filter.reviewer],
    ] as const)
      if (value !== undefined) {
        clauses.push(`${column} = ?`);
        values.push(value);
      }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    const rows = this.database()
      .prepare(`SELECT * FROM human_grades ${where} ORDER BY graded_at, id`)
      .all(...values) as GradeRow[];
    return rows.map((row) => ({
      id: row.id,
      runId: row.run_id,
      sampleId: row.sample_id,
      task: row.task,
      reviewer: row.reviewer,
      rubricVersion: row.rubric_version,
      rubricSha256: row.rubric_sha256,
      verdicts: parseColumn<Record<string, boolean>>(
        row.verdicts_json,
        () => `human_grades.verdicts_json of grade ${row.id}`,
      ),
      score: row.score,
      note: row.note,
      gradedAt: row.graded_at,
      source: row.source,
    }));
  }

  /** Each reviewer's current grade of each item matching `filter`: their latest. */
  current(filter: GradeFilter = {}): HumanGrade[] {
    const latest = new Map<string, HumanGrade>();
    for (const grade of this.history(filter))
      latest.set(JSON.stringify([grade.runId, grade.sampleId, grade.reviewer]), grade);
    return [...latest.values()];
  }
}
