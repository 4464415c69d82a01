import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { testRun } from '../../test/support/test-run.js';
import type { HumanGrade } from './human-grades.js';
import { mergeStores } from './merge-stores.js';
import { Store } from './store.js';

const grade = (overrides: Partial<Omit<HumanGrade, 'id'>> = {}): Omit<HumanGrade, 'id'> => ({
  runId: 'r1',
  sampleId: 's1',
  task: 'meqsum',
  reviewer: 'alice',
  rubricVersion: '1',
  rubricSha256: 'abc',
  verdicts: { 'keeps-focus': true, 'adds-facts': false },
  score: 0.5,
  note: '',
  gradedAt: '2026-11-27T10:00:00.000Z',
  source: 'viewer',
  ...overrides,
});

describe('HumanGrades', () => {
  it('keeps every grade (an edit is a new row), answers the latest per item and reviewer as current, and stores a grade given twice once', () => {
    const store = new Store(':memory:');
    const first = store.humanGrades.add(grade());
    store.humanGrades.add(grade());
    // The same grade from a CSV file is the same row: the first stored keeps its source.
    expect(store.humanGrades.add(grade({ source: 'csv' })).id).toBe(first.id);
    expect(store.humanGrades.history({ reviewer: 'alice' }).map((row) => row.source)).toEqual(['viewer']);
    const edit = store.humanGrades.add(
      grade({
        verdicts: { 'keeps-focus': true, 'adds-facts': true },
        score: 0,
        gradedAt: '2026-11-27T11:00:00.000Z',
      }),
    );
    const other = store.humanGrades.add(grade({ reviewer: 'bob', gradedAt: '2026-11-27T10:30:00.000Z' }));
    store.humanGrades.add(grade({ sampleId: 's2', task: 'medisumqa' }));
    expect(store.humanGrades.history({ sampleId: 's1' }).map((row) => row.id)).toEqual([
      first.id,
      other.id,
      edit.id,
    ]);
    expect(store.humanGrades.history({ reviewer: 'alice', sampleId: 's1' })).toHaveLength(2);
    const current = store.humanGrades.current({ task: 'meqsum' });
    expect(current.map((row) => [row.reviewer, row.score])).toEqual([
      ['alice', 0],
      ['bob', 0.5],
    ]);
    expect(current.find((row) => row.reviewer === 'alice')?.verdicts).toEqual({
      'keeps-focus': true,
      'adds-facts': true,
    });
    expect(store.humanGrades.current({ task: 'medisumqa' })).toHaveLength(1);
    store.close();
  });

  it('merging two stores brings each grade once, however often merged', () => {
    const folder = temporaryFolder('medbench-grades-');
    const source = new Store(join(folder, 'source.sqlite'));
    source.ensureRun(testRun({ id: 'r1' }));
    source.humanGrades.add(grade());
    source.humanGrades.add(grade({ reviewer: 'bob' }));
    source.close();
    const target = join(folder, 'target.sqlite');
    mergeStores(target, [join(folder, 'source.sqlite')]);
    mergeStores(target, [join(folder, 'source.sqlite')]);
    const store = new Store(target);
    expect(
      store.humanGrades
        .history()
        .map((row) => row.reviewer)
        .sort(),
    ).toEqual(['alice', 'bob']);
    store.close();
  });
});
