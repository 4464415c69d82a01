import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvText } from '../../src/compose/grades-csv.js';
import { Store } from '../../src/store/store.js';
import { judgeValidationSchema } from '../../src/suites/clue/judge-validation-schema.js';
import { parseCsv } from '../../src/suites/clue/parse-csv.js';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from '../support/llm-test-server.js';
import { testResultRecord, testRun } from '../support/test-run.js';
import { type CliResult, runCli, temporaryHome } from './cli.js';

const RUN = 'cluegrades01';
const UNJUDGED = 'cluegrades02';

/** The judge: every positive criterion met for a "good …" answer, only the first for any other. */
function judge(request: RecordedRequest) {
  const messages = request.body.messages as Array<{ content: string }>;
  const criteria = [...messages[0]!.content.matchAll(/^- ([a-z0-9-]+) \(([+-]\d+)\)/gm)];
  const good = /<answer_to_grade>\ngood/.test(messages[1]!.content);
  const verdicts = criteria.map(([, id, points], index) => ({
    id,
    met: Number(points) > 0 && (good || index === 0),
    reason: 'scripted',
  }));
  return { kind: 'answer' as const, text: JSON.stringify({ criteria: verdicts }) };
}

/** A CLUE run of 15 MeQSum answers (every third "half …", the rest "good …") and one never answered; another of one MeDiSumQA answer. */
function writeRuns(home: string): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  const answer = (order: number) =>
    order === 15 ? null : `${order % 3 === 0 ? 'half' : 'good'} answer ${order}`;
  try {
    store.ensureRun(testRun({ id: RUN, suite: 'clue', label: 'model' }));
    store.ensureRun(testRun({ id: UNJUDGED, suite: 'clue', label: 'other' }));
    for (let order = 0; order <= 15; order++)
      store.putResult(
        testResultRecord({
          runId: RUN,
          sampleId: `meqsum/${order}`,
          task: 'meqsum',
          params: { order },
          gold: { reference: `What treats condition ${order}?` },
          prompt: `Summarize: question ${order}`,
          status: order === 15 ? 'error' : 'ok',
          rawOutput: answer(order),
          parsed: answer(order),
          scores: { rougeL: 0.5 },
        }),
      );
    store.putResult(
      testResultRecord({
        runId: UNJUDGED,
        sampleId: 'medisumqa/0',
        task: 'medisumqa',
        gold: { reference: 'r' },
      }),
    );
  } finally {
    store.close();
  }
}

/**
 * A sheet filled as a person would: a "good" answer meets the positive criteria except "succinct"
 * on every other row (strict), a "half" one only keeps-focus; negative criteria never met.
 */
function fill(sheet: string, strict: (row: number) => boolean): string {
  const [header, ...rows] = parseCsv(sheet).map((row) => row.fields);
  const answer = header!.indexOf('answer');
  const negative = new Set(['criterion:adds-facts', 'criterion:answers-instead']);
  const filled = rows.map((row, index) =>
    header!.map((column, at) => {
      if (!column.startsWith('criterion:')) return row[at]!;
      if (negative.has(column)) return '0';
      if (!row[answer]!.startsWith('good')) return column === 'criterion:keeps-focus' ? 'yes' : 'no';
      return column === 'criterion:succinct' && strict(index) ? '0' : '1';
    }),
  );
  return csvText([header!, ...filled]);
}

describe('grades CSV and judge-validate (built CLI, scripted judge on 127.0.0.1)', () => {
  let server: LlmTestServer;
  let home: string;
  const cli = (...args: string[]) => runCli(['--home', home, ...args]);
  const results: Record<string, CliResult> = {};
  let exported = '';

  beforeAll(async () => {
    server = await startLlmTestServer({ fallback: judge });
    home = temporaryHome();
    writeRuns(home);
    results.judge = await cli('judge', RUN, '--model', `openai-compatible:judge-a@${server.url}/v1`);
    // Ann grades 12 of the 15 answers from a blank sheet; Bob 4 (his queue: the double-rated share Ann graded first).
    const sheet = (reviewer: string, limit: string, ...more: string[]) =>
      cli(
        'export',
        'grades',
        '--blank',
        '--task',
        'meqsum',
        '--reviewer',
        reviewer,
        '--limit',
        limit,
        ...more,
        '--out',
        join(home, `${reviewer}.csv`),
      );
    results.annSheet = await sheet('ann', '12');
    writeFileSync(
      join(home, 'ann.csv'),
      fill(readFileSync(join(home, 'ann.csv'), 'utf8'), (row) => row % 2 === 0),
    );
    results.annImport = await cli('import', 'grades', join(home, 'ann.csv'));
    // Bob grades 4 of Ann's items again from an export of hers: his name, no time, succinct always met.
    results.annExport = await cli('export', 'grades', '--task', 'meqsum', '--run', 'model');
    const [annHeader, ...annRows] = parseCsv(results.annExport.stdout).map((row) => row.fields);
    const column = (name: string) => annHeader!.indexOf(name);
    const bob = annRows.slice(0, 4).map((row) =>
      row.map((cell, at) => {
        if (at === column('reviewer')) return 'bob';
        if (at === column('graded_at')) return '';
        return at === column('criterion:succinct') ? '1' : cell;
      }),
    );
    writeFileSync(join(home, 'bob.csv'), csvText([annHeader!, ...bob]));
    results.bobImport = await cli('import', 'grades', join(home, 'bob.csv'));
    results.exported = await cli('export', 'grades', '--out', join(home, 'grades.csv'));
    exported = readFileSync(join(home, 'grades.csv'), 'utf8');
    const [header, ...rows] = parseCsv(exported).map((row) => row.fields);
    rows[0]![header!.indexOf('criterion:keeps-focus')] = 'maybe';
    writeFileSync(join(home, 'bad.csv'), csvText([header!, ...rows]));
    results.badImport = await cli('import', 'grades', join(home, 'bad.csv'));
    results.validateJson = await cli('judge-validate', RUN, '--json');
    results.validateText = await cli('judge-validate', RUN);
    results.unjudged = await cli('judge-validate', UNJUDGED);
    // Another team's seed: its sheet's tokens are its own, and only resolve under the same seed.
    const carol = join(home, 'carol.csv');
    const seeded = ['--review-seed', 'team-b'];
    results.carolSheet = await sheet('carol', '1', ...seeded);
    writeFileSync(
      carol,
      fill(readFileSync(carol, 'utf8'), () => true),
    );
    results.carolUnseeded = await cli('import', 'grades', carol);
    results.carolImport = await cli('import', 'grades', carol, ...seeded);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('a blank sheet is blinded and importable; export writes every current grade', () => {
    expect(results.judge!.code).toBe(0);
    expect(results.annSheet!.code).toBe(0);
    expect(results.annSheet!.stderr).toMatch(/Rubric of meqsum, version 1 .*\n {2}keeps-focus \(\+5\): /);
    expect(readFileSync(join(home, 'ann.csv'), 'utf8')).not.toContain(RUN);
    expect(results.annImport!.stdout).toMatch(/12 grades added, 0 skipped/);
    expect(results.bobImport!.stdout).toMatch(/4 grades added/);
    // Every current grade, with run, sample and token: 16 rows and the header.
    expect(parseCsv(exported).filter((row) => row.fields.length > 1)).toHaveLength(17);
  });

  it('--review-seed: a sheet of another seed carries its own tokens, imported only under that seed', () => {
    expect(results.carolSheet!.code).toBe(0);
    expect(results.carolUnseeded!.code).not.toBe(0);
    expect(results.carolUnseeded!.stderr).toMatch(/is not the token of any answer in this store/);
    // One grade: the count's noun in the singular.
    expect(results.carolImport!.stdout).toMatch(/: 1 grade added, 0 skipped/);
  });

  it('a bad cell: the file, line and column named, non-zero exit (the store unchanged: grades-csv.test.ts)', () => {
    expect(results.badImport!.code).not.toBe(0);
    expect(results.badImport!.stderr).toMatch(
      /bad\.csv: 1 problem; nothing was imported:\n {2}line 2, column "criterion:keeps-focus": "maybe": mark the criterion 1/,
    );
  });

  it('judge-validate: agreement per criterion, ICC, and the corrected score with its interval', () => {
    expect(results.validateJson!.code).toBe(0);
    const document = judgeValidationSchema.parse(JSON.parse(results.validateJson!.stdout));
    const [meqsum] = document.tasks;
    expect(meqsum).toMatchObject({ task: 'meqsum', labelled: 12, otherRubric: 0 });
    expect(meqsum!.doubleRated).toBeGreaterThan(0);
    expect(meqsum!.people.items).toBe(meqsum!.doubleRated);
    // "half" answers: judge and people both mark keeps-focus only, "good" ones: the judge marks succinct
    // always, Ann on every other row: succinct agrees less than keeps-focus (always met by both).
    const succinct = meqsum!.criteria.jury.find((entry) => entry.criterion === 'succinct')!;
    expect(succinct.judgeRate).toBeGreaterThan(succinct.humanRate!);
    expect(meqsum!.criteria.jury.find((entry) => entry.criterion === 'keeps-focus')!.observedAgreement).toBe(
      1,
    );
    expect('agreement' in meqsum!.icc && meqsum!.icc.agreement.form).toBe('ICC(2,1)');
    const [run] = meqsum!.runs;
    expect(run).toMatchObject({
      runId: RUN,
      label: 'model#cluegr',
      items: 16,
      answered: 15,
      notAnswered: 1,
      labelled: 12,
      enough: true,
      warning: null,
    });
    // The judge is lenient on succinct, so the corrected score is below the judge's.
    expect(run!.corrected!.estimate!).toBeLessThan(run!.judgeScore!.estimate!);
    expect(run!.corrected!.lower!).toBeLessThan(run!.corrected!.estimate!);
    expect(results.validateText!.stdout).toMatch(/Judge score +People only +Corrected \(PPI\+\+\) +Labelled/);
    expect(results.validateText!.stdout).toMatch(/model#cluegr +[\d.]+ \[[\d.]+, [\d.]+\] .* 12\/15 \(80%\)/);
  });

  it('judge-validate of a run never judged: a clear error', () => {
    expect(results.unjudged!.code).toBe(2);
    expect(results.unjudged!.stderr).toMatch(/model|other/);
    expect(results.unjudged!.stderr).toMatch(
      /has not been judged: it has no judge score to validate\.\n {2}hint: Judge it first: medbench judge cluegrad/,
    );
  });
});
