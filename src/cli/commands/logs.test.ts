import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clueRun } from '../../../test/support/clue-leaderboard-runs.js';
import { temporaryFolder } from '../../../test/support/temporary-folder.js';
import { testResultRecord, testRun } from '../../../test/support/test-run.js';
import { everyEvalEverValidators, inspectLogValidator } from '../../../test/support/third-party-schemas.js';
import { loggedRuns, WITHHELD_TEXT } from '../../compose/logged-runs.js';
import { SUITES } from '../../compose/suites.js';
import { Store } from '../../store/store.js';
import { createProgram } from '../main.js';
import { reportCommand } from './report.js';

/** Text only the store holds: it must never reach a log of a restricted task. */
const SECRET = 'MIMIC-NOTE-TEXT';

/**
 * A CLUE run over six datasets (four MIMIC-derived), each result with a prompt, output and gold,
 * and a MedOdyssey run of a dataset file whose header marks it restricted.
 */
function writeRuns(home: string): void {
  mkdirSync(home, { recursive: true });
  const dataset = join(home, 'restricted.jsonl');
  writeFileSync(
    dataset,
    `${JSON.stringify({ medbenchDataset: 1, suite: 'medodyssey', restricted: true })}\n`,
  );
  const store = new Store(join(home, 'medbench.sqlite'));
  const clue = clueRun('clue-run', 1);
  store.ensureRun({ ...clue.run, model: { provider: 'baseline', modelId: 'org/model-7b' } });
  for (const result of clue.results)
    store.putResult({
      ...result,
      prompt: `${SECRET} prompt of ${result.sampleId}`,
      rawOutput: `${SECRET} answer of ${result.sampleId}`,
      parsed: `${SECRET} parsed`,
      gold: { answers: [`${SECRET} gold`] },
      inputTokens: 10,
      outputTokens: 2,
      latencyMs: 5,
    });
  store.explicitCaches.addCost({ runId: 'clue-run', task: 'meqsum', cache: 'c1', cost: 0.25 });
  store.ensureRun(
    testRun({
      id: 'niah-run',
      label: 'niah model',
      datasetPath: dataset,
      model: { provider: 'openai', modelId: 'm' },
    }),
  );
  for (const [index, esm] of [1, 0, 1].entries())
    store.putResult(
      testResultRecord({
        runId: 'niah-run',
        sampleId: `n${index}`,
        params: { language: 'en', level: 4000, depth: 0, needleId: index },
        prompt: `${SECRET} needle ${index}`,
        scores: { esm, ssm: esm },
      }),
    );
  // A sample that failed: no output, no score (it counts 0), an error text.
  store.putResult(
    testResultRecord({
      runId: 'niah-run',
      sampleId: 'n3',
      params: { language: 'en', level: 4000, depth: 0, needleId: 3 },
      status: 'error',
      rawOutput: null,
      parsed: undefined,
      scores: {},
      inputTokens: null,
      outputTokens: null,
      error: `HTTP 500: ${SECRET} echoed`,
    }),
  );
  store.close();
}

/** `medbench <args>` in this process, its stderr and exit code. */
async function medbench(args: readonly string[]): Promise<{ stderr: string; code: number }> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
  try {
    await createProgram().parseAsync(['node', 'medbench', ...args]);
  } finally {
    process.stderr.write = write;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { stderr: written.join(''), code };
}

const filesIn = (folder: string) =>
  (readdirSync(folder, { recursive: true, encoding: 'utf8' }) as string[]).map((name) => join(folder, name));

/** `report --json` of a suite in `home`, without the time it was made. */
function reportJson(home: string, suite: string): unknown {
  let text = '';
  reportCommand(
    { suite, home, json: true, suites: SUITES },
    { stdout: (chunk) => (text += chunk), stderr: () => {} },
  );
  const { generatedAt: _time, ...report } = JSON.parse(text) as Record<string, unknown>;
  return report;
}

describe('medbench export logs and import logs', () => {
  let scratch: string;
  let home: string;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'medbench-logs-'));
    home = join(scratch, 'home');
    writeRuns(home);
    for (const format of ['eee', 'inspect'])
      expect(
        (
          await medbench([
            '--home',
            home,
            'export',
            'logs',
            '--format',
            format,
            '--out',
            join(scratch, format),
          ])
        ).code,
      ).toBe(0);
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("writes Every Eval Ever records that its published schemas (0.3.0, pinned) accept, with the report's figures", () => {
    const validators = everyEvalEverValidators();
    const files = filesIn(join(scratch, 'eee')).filter((file) => /\.jsonl?$/.test(file));
    const aggregates = files.filter((file) => file.endsWith('.json'));
    expect(aggregates).toHaveLength(2);
    expect(aggregates.some((file) => file.includes(join('data', 'medbench-clue', 'org', 'model-7b')))).toBe(
      true,
    );
    for (const file of aggregates) {
      const aggregate = JSON.parse(readFileSync(file, 'utf8')) as {
        detailed_evaluation_results: { file_path: string };
      };
      expect(validators.aggregate(aggregate), file).toEqual([]);
      // The samples file sits where the aggregate says, beside it.
      expect(existsSync(join(scratch, 'eee', aggregate.detailed_evaluation_results.file_path))).toBe(true);
    }
    for (const file of files.filter((name) => name.endsWith('.jsonl')))
      for (const line of readFileSync(file, 'utf8').trim().split('\n'))
        expect(validators.instance(JSON.parse(line)), line.slice(0, 120)).toEqual([]);
    const clue = JSON.parse(
      readFileSync(aggregates.find((file) => file.includes('medbench-clue'))!, 'utf8'),
    ) as {
      evaluation_results: Array<{ evaluation_name: string; score_details: { score: number } }>;
    };
    // MeQSum's ROUGE-L by hand: (0.4 + 0.6) / 2; MedNLI's accuracy: 3 of 4.
    const score = (name: string) => clue.evaluation_results.find((entry) => entry.evaluation_name === name);
    expect(score('meqsum')?.score_details.score).toBeCloseTo(0.5, 12);
    expect(score('mednli')?.score_details.score).toBeCloseTo(0.75, 12);
  });

  it('withholds the text of restricted tasks (CLUE MedNLI, Problem Summary, MeDiSumQA, MeDiSumCode) and of a dataset file marked restricted, and keeps the rest', () => {
    const lines = filesIn(join(scratch, 'eee'))
      .filter((file) => file.endsWith('.jsonl'))
      .flatMap((file) => readFileSync(file, 'utf8').trim().split('\n'))
      .map(
        (line) =>
          JSON.parse(line) as { evaluation_name: string; input: { raw: string }; output: { raw: string[] } },
      );
    const restricted = lines.filter((line) =>
      ['mednli', 'problem-summary', 'medisumqa', 'medisumcode', 'niah'].includes(line.evaluation_name),
    );
    expect(restricted).toHaveLength(14);
    for (const line of restricted) {
      expect(JSON.stringify(line)).not.toContain(SECRET);
      expect(line.input.raw).toBe(WITHHELD_TEXT);
      expect(line.output.raw).toEqual([WITHHELD_TEXT]);
    }
    const meqsum = lines.find((line) => line.evaluation_name === 'meqsum')!;
    expect(meqsum.input.raw).toBe(`${SECRET} prompt of meqsum/0`);
    expect(meqsum.output.raw).toEqual([`${SECRET} answer of meqsum/0`]);
  });

  it("writes Inspect eval logs (one per run and task) that Inspect's published EvalLog schema (pinned) accepts, restricted text withheld", () => {
    const validate = inspectLogValidator();
    const logs = filesIn(join(scratch, 'inspect')).map(
      (file) =>
        JSON.parse(readFileSync(file, 'utf8')) as {
          eval: { task: string };
          samples: Array<{ input: string; output: { completion: string } }>;
          results: { scores: Array<{ name: string; metrics: Record<string, { value: number }> }> };
        },
    );
    expect(logs.map((log) => log.eval.task).sort()).toEqual(
      ['longhealth', 'medisumcode', 'mednli', 'medisumqa', 'meqsum', 'problem-summary']
        .map((task) => `medbench/clue/${task}`)
        .concat('medbench/medodyssey/niah')
        .sort(),
    );
    for (const log of logs) expect(validate(log), log.eval.task).toEqual([]);
    const mednli = logs.find((log) => log.eval.task === 'medbench/clue/mednli')!;
    expect(JSON.stringify(mednli)).not.toContain(SECRET);
    expect(mednli.samples[0]!.input).toBe(WITHHELD_TEXT);
    const meqsum = logs.find((log) => log.eval.task === 'medbench/clue/meqsum')!;
    expect(meqsum.samples[0]!.output.completion).toBe(`${SECRET} answer of meqsum/0`);
    const niah = logs.find((log) => log.eval.task === 'medbench/medodyssey/niah')!;
    // En.NIAH under ESM by hand: 2 of 4 (the failed sample counts 0).
    expect(
      Object.values(niah.results.scores.find((score) => score.name === 'En.NIAH')!.metrics)[0]!.value,
    ).toBeCloseTo(0.5, 12);
    // The schema is not a formality: a log without its samples' required fields is refused.
    const broken = JSON.parse(JSON.stringify(meqsum)) as { samples: Array<Record<string, unknown>> };
    delete broken.samples[0]!.target;
    expect(validate(broken).join('\n')).toMatch(/target/);
  });

  it("withholds a run its manifest records as marked --restricted, or restricted whole (dataset file moved since); CLUE's MIMIC restriction stays per task", () => {
    const marked = join(scratch, 'marked-home');
    mkdirSync(marked);
    const store = new Store(join(marked, 'medbench.sqlite'));
    try {
      const restrictedData = (level: string, marked: boolean) => ({
        restrictedData: { level, what: 'x', why: 'y', redacted: false, marked },
      });
      const runs = [
        ['marked', 'medodyssey', restrictedData('restricted', true)],
        ['moved', 'medodyssey', restrictedData('restricted', false)],
        ['open', 'medodyssey', restrictedData('open', false)],
        ['clue-mimic', 'clue', restrictedData('restricted', false)],
        ['clue-marked', 'clue', restrictedData('restricted', true)],
      ] as const;
      for (const [id, suite, recipe] of runs) {
        store.ensureRun(testRun({ id, suite, datasetPath: join(scratch, 'gone.jsonl') }));
        store.putResult(
          testResultRecord({
            runId: id,
            sampleId: 's0',
            task: suite === 'clue' ? 'meqsum' : 'niah',
            prompt: `${SECRET} ${id}`,
          }),
        );
        store.recipes.put(id, recipe);
      }
      const withheld = loggedRuns(store, { suites: SUITES }).map(
        ({ run, results }) => [run.id, results.every((result) => result.withheld)] as const,
      );
      expect(Object.fromEntries(withheld)).toEqual({
        marked: true,
        moved: true,
        open: false,
        'clue-mimic': false,
        'clue-marked': true,
      });
    } finally {
      store.close();
    }
  });

  it('export logs --restricted withholds every run', async () => {
    const out = join(scratch, 'restricted');
    const { stderr } = await medbench([
      '--home',
      home,
      'export',
      'logs',
      '--format',
      'inspect',
      '--restricted',
      '--out',
      out,
    ]);
    expect(stderr).toMatch(/the text of 18 results was withheld/);
    for (const file of filesIn(out)) expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('export → import → the same report (every suite; imported twice, still the same), the withheld text staying out of the new store', async () => {
    const copy = join(scratch, 'imported');
    for (let time = 0; time < 2; time++) {
      const imported = await medbench([
        '--home',
        copy,
        'import',
        'logs',
        '--format',
        'eee',
        join(scratch, 'eee'),
      ]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toMatch(/Imported run clue-run \(clue, clue-run\): 14 results/);
      for (const suite of ['clue', 'medodyssey'])
        expect(reportJson(copy, suite)).toEqual(reportJson(home, suite));
    }
    const store = new Store(join(copy, 'medbench.sqlite'), { readonly: true });
    const results = store.results('clue-run');
    store.close();
    expect(results.find((row) => row.task === 'meqsum')!.rawOutput).toBe(`${SECRET} answer of meqsum/0`);
    expect(results.find((row) => row.task === 'mednli')).toMatchObject({ rawOutput: null, gold: null });
  });

  it('refuses records medbench did not write, naming the file and field, and leaves the store as it was', async () => {
    const folder = temporaryFolder('medbench-logs-bad-');
    writeFileSync(
      join(folder, 'other.json'),
      JSON.stringify({ evaluation_id: 'x', eval_library: { name: 'lm_eval', version: '1' } }),
    );
    const target = join(scratch, 'untouched');
    const { stderr, code } = await medbench(['--home', target, 'import', 'logs', '--format', 'eee', folder]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/other\.json: field "eval_library\.name"/);
    expect(stderr).toMatch(/hint: medbench reads back/);
    expect(existsSync(join(target, 'medbench.sqlite'))).toBe(false);
  });

  it('refuses a damaged samples line, naming file, line and field; the good run beside it is not written either', async () => {
    const folder = temporaryFolder('medbench-logs-damaged-');
    const files = filesIn(join(scratch, 'eee')).filter((file) => /\.jsonl?$/.test(file));
    for (const file of files) writeFileSync(join(folder, file.split('/').at(-1)!), readFileSync(file));
    const samples = filesIn(folder).find(
      (file) => file.endsWith('.jsonl') && readFileSync(file, 'utf8').includes('clue-run'),
    )!;
    const lines = readFileSync(samples, 'utf8').trim().split('\n');
    // The status inside the result's JSON (escaped once more in the line): one medbench does not know.
    expect(lines[1]).toContain('\\"status\\":\\"ok\\"');
    lines[1] = lines[1]!.replace('\\"status\\":\\"ok\\"', '\\"status\\":\\"maybe\\"');
    writeFileSync(samples, `${lines.join('\n')}\n`);
    const target = join(scratch, 'untouched-2');
    const { stderr, code } = await medbench(['--home', target, 'import', 'logs', '--format', 'eee', folder]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/_samples\.jsonl:2: field "metadata\.medbench_result"/);
    expect(existsSync(join(target, 'medbench.sqlite'))).toBe(false);
  });
});
