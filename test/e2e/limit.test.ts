import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, startViewer, temporaryHome } from './cli.js';

/**
 * `--limit n` on every run command: the first n samples of each task in the dataset's order, a
 * run of its own (never taken for the full one), and every report says the run was limited.
 */
const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
let server: LlmTestServer;

beforeAll(async () => {
  await buildSampleNiah(dataset);
  server = await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: '{"answer": "no idea"}' }) });
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Run ids and result counts of the store's runs of a suite, oldest first. */
function storedRuns(home: string, suite: string): Array<{ id: string; results: number; parameters: string }> {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return database
      .prepare(
        `SELECT runs.id AS id, runs.parameters_json AS parameters,
           (SELECT COUNT(*) FROM results WHERE results.run_id = runs.id) AS results
         FROM runs WHERE suite = ? ORDER BY created_at, id`,
      )
      .all(suite) as Array<{ id: string; results: number; parameters: string }>;
  } finally {
    database.close();
  }
}

/** The text, JSON and HTML reports of a suite in `home`. */
async function reports(home: string, suite: string) {
  const text = await runCli(['--home', home, 'report', '--suite', suite]);
  const json = await runCli(['--home', home, 'report', '--suite', suite, '--json']);
  const htmlPath = join(home, `${suite}-report.html`);
  const html = await runCli(['--home', home, 'report', '--suite', suite, '--html', htmlPath]);
  expect([text.code, json.code, html.code]).toEqual([0, 0, 0]);
  return {
    text: text.stdout,
    json: JSON.parse(json.stdout) as { limited: Array<{ runId: string; text: string }> },
    html: readFileSync(htmlPath, 'utf8'),
  };
}

describe('--limit on every run command', () => {
  it('run --dataset: the first n samples in the dataset order, a run of its own, reported as limited', async () => {
    const home = temporaryHome();
    const run = (...extra: string[]) =>
      runCli([
        ...['--home', home, 'run', '--dataset', dataset],
        ...['--model', `openai-compatible:m@${server.url}/v1`, '--context-window', '128000', ...extra],
      ]);
    const dry = await run('--limit', '3', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^niah\t3\t0\t/m);
    expect(dry.stdout).toContain('The run is limited to the first 3 of 20 samples (--limit 3).');
    const before = server.requests.length;
    const limited = await run('--limit', '3');
    expect(limited.stderr).not.toMatch(/error \[/);
    expect(limited.code).toBe(0);
    expect(server.requests.length - before).toBe(3);
    const said = 'limited to the first 3 of 20 samples (--limit 3)';
    expect(`${limited.stdout}${limited.stderr}`).toContain(said);
    const firstIds = readFileSync(dataset, 'utf8')
      .trim()
      .split('\n')
      .slice(1, 4)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
    const storedIds = database.prepare('SELECT sample_id FROM results ORDER BY sample_id').pluck().all();
    database.close();
    expect(storedIds).toEqual([...firstIds].sort());

    const { text, json, html } = await reports(home, 'medodyssey');
    const [limitedRun] = storedRuns(home, 'medodyssey');
    expect(json.limited).toEqual([expect.objectContaining({ runId: limitedRun!.id, text: said })]);
    expect(text).toContain(said);
    expect(html).toContain(said);
    const { viewer, url } = await startViewer(home);
    try {
      const summary = (await (await fetch(`${url}api/run?id=${limitedRun!.id}`)).json()) as {
        limited: string | null;
      };
      expect(summary.limited).toBe(said);
      // The leaderboard's runs: the limited one is tagged, so it is never read as the full run.
      const overview = (await (await fetch(`${url}api/overview`)).json()) as {
        suites: Array<{ suite: string; runs: Array<{ id: string; limited: string | null }> }>;
      };
      const runs = overview.suites.find((entry) => entry.suite === 'medodyssey')!.runs;
      expect(runs).toEqual([expect.objectContaining({ id: limitedRun!.id, limited: said })]);
    } finally {
      viewer.child.kill('SIGINT');
      await viewer.done;
    }

    // The full run is another run: it does not resume the limited one or take it for itself.
    const full = await run();
    expect(full.code).toBe(0);
    expect(`${full.stdout}${full.stderr}`).not.toContain('limited to');
    const runs = storedRuns(home, 'medodyssey');
    expect(runs.map((entry) => entry.results)).toEqual([3, 20]);
    expect(new Set(runs.map((entry) => entry.id)).size).toBe(2);
    const afterFull = await reports(home, 'medodyssey');
    expect(afterFull.json.limited.map((entry) => entry.runId)).toEqual([limitedRun!.id]);
    // Beside the full run, the depths the limited run did not reach read "not run", not "beyond the window".
    const [title, , , ...gridRows] = afterFull.text.split('\n\n')[0]!.split('\n');
    expect(title).toContain(
      "— = level beyond the model's context window; · = not run (a limited run, or a level or depth its dataset lacks)",
    );
    expect(gridRows.join('\n')).not.toContain('—');
    expect(gridRows.filter((row) => row.includes('·')).length).toBeGreaterThan(0);
    // A limit no task reaches leaves the run whole: it is the full run, resumed (nothing sent).
    const sent = server.requests.length;
    const whole = await run('--limit', '50');
    expect(whole.code).toBe(0);
    expect(server.requests.length).toBe(sent);
    expect(storedRuns(home, 'medodyssey')).toHaveLength(2);
    rmSync(home, { recursive: true, force: true });
  });

  it('run medeureka: the first n queries of each task against the whole corpus, reported as limited', async () => {
    const home = temporaryHome();
    const run = (...extra: string[]) =>
      runCli([
        ...['--home', home, 'run', 'medeureka', '--data', join(ROOT, 'samples', 'medeureka')],
        ...['--model', 'bm25', ...extra],
      ]);
    const limited = await run('--limit', '1');
    expect(limited.stderr).not.toMatch(/error \[/);
    expect(limited.code).toBe(0);
    expect(`${limited.stdout}${limited.stderr}`).toMatch(/limited to the first 1 samples of each task/);
    const { text, json, html } = await reports(home, 'medeureka');
    const report = json as unknown as {
      runs: Array<{ datasets: Record<string, { queries: number }> }>;
      limited: Array<{ text: string }>;
    };
    // Term I pools two sub-corpora (3 + 2 queries): one query of each task.
    expect(report.runs[0]!.datasets['Term I']!.queries).toBeLessThan(5);
    expect(report.limited).toHaveLength(1);
    expect(report.limited[0]!.text).toMatch(
      /^limited to the first 1 samples of each task \(--limit 1\): \d+ of \d+/,
    );
    expect(text).toContain(report.limited[0]!.text);
    expect(html).toContain(report.limited[0]!.text);
    const [limitedRun] = storedRuns(home, 'medeureka');
    const tasks = Object.values(
      (JSON.parse(limitedRun!.parameters) as { limit: { tasks: Record<string, { kept: number }> } }).limit
        .tasks,
    );
    expect(limitedRun!.results).toBe(tasks.length);
    expect(tasks.every((task) => task.kept === 1)).toBe(true);

    const full = await run();
    expect(full.code).toBe(0);
    const runs = storedRuns(home, 'medeureka');
    expect(runs).toHaveLength(2);
    expect(runs[1]!.results).toBeGreaterThan(runs[0]!.results);
    rmSync(home, { recursive: true, force: true });
  });

  it('run clue: the same meaning and report, the first n items of each task', async () => {
    const home = temporaryHome();
    const data = join(scratch, 'clue');
    mkdirSync(data, { recursive: true });
    writeClueFixtures(data);
    const run = (...extra: string[]) =>
      runCli([
        ...['--home', home, 'run', 'clue', '--data', data, '--model', 'baseline'],
        ...['--tasks', 'mednli,meqsum', ...extra],
      ]);
    const limited = await run('--limit', '2');
    expect(limited.stderr).not.toMatch(/error \[/);
    expect(limited.code).toBe(0);
    // MedNLI's 6 pairs and MeQSum's 5 rows keep 3 as few-shot examples: 3 and 2 items to score.
    const said =
      'limited to the first 2 samples of each task (--limit 2): 4 of 5 samples (mednli 2 of 3, meqsum 2 of 2)';
    expect(limited.stdout).toContain(said);
    const { text, json, html } = await reports(home, 'clue');
    expect(json.limited[0]!.text).toBe(said);
    expect(text).toContain(said);
    expect(html).toContain(said);
    expect(storedRuns(home, 'clue').map((entry) => entry.results)).toEqual([4]);
    const full = await run();
    expect(full.code).toBe(0);
    expect(storedRuns(home, 'clue')).toHaveLength(2);
    rmSync(home, { recursive: true, force: true });
  });

  it('a limit that is not a whole number of at least 1 is a usage error on every run command', async () => {
    const home = temporaryHome();
    // Only decimal digits: Number() would read 1e3 as 1000 and 0x3 as 3, 2.0 as 2.
    for (const command of [
      ['run', '--dataset', dataset, '--model', `openai-compatible:m@${server.url}/v1`],
      ['run', 'medeureka', '--data', join(ROOT, 'samples', 'medeureka'), '--model', 'bm25'],
      ['run', 'clue', '--data', scratch, '--model', 'baseline'],
    ])
      for (const value of ['0', '-2', '1.5', 'three', '1e3', '0x3', '2.0']) {
        const result = await runCli(['--home', home, ...command, '--limit', value]);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/--limit/);
        if (['1e3', '0x3', '2.0'].includes(value)) expect(result.stderr).toContain('in decimal digits');
      }
    expect(storedRunsOrNone(home)).toBe(0);
    rmSync(home, { recursive: true, force: true });
  });
});

/** How many runs the home's store holds (0 when there is no store). */
function storedRunsOrNone(home: string): number {
  try {
    const database = new Database(join(home, 'medbench.sqlite'), { readonly: true, fileMustExist: true });
    const count = database.prepare('SELECT COUNT(*) FROM runs').pluck().get() as number;
    database.close();
    return count;
  } catch {
    return 0;
  }
}
