import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { type Behaviour, type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, startCli, temporaryHome } from './cli.js';
import { filesContain, storeSnapshot } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
const TOTAL = 20; // 4 needles × 5 depths × 1 level
const servers: LlmTestServer[] = [];

beforeAll(async () => {
  await buildSampleNiah(dataset);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  rmSync(scratch, { recursive: true, force: true });
});

async function server(text: string | (() => Behaviour)): Promise<LlmTestServer> {
  const started = await startLlmTestServer({
    fallback: typeof text === 'string' ? () => ({ kind: 'answer', text }) : text,
  });
  servers.push(started);
  return started;
}

function storedResults(home: string): Array<{ status: string; attempts: number; error: string | null }> {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return database.prepare('SELECT status, attempts, error FROM results').all() as Array<{
      status: string;
      attempts: number;
      error: string | null;
    }>;
  } finally {
    database.close();
  }
}

/**
 * Runs `count` Node processes that each wait for one shared start time, then run `lines` (an ES
 * module body) and print "ok"; resolves with the output of those that failed.
 */
async function atTheSameMoment(count: number, lines: readonly string[]): Promise<string[]> {
  const [load, ...work] = lines;
  // Asleep until the start (not spinning: spinning processes take turns on a small machine's cores).
  const wait =
    'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, Number(process.argv[1]) - Date.now()));';
  const script = [load, wait, ...work].concat("console.log('ok');").join('\n');
  const start = Date.now() + 1500;
  const outcomes = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script, String(start)]);
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (code) => resolve({ code, output }));
        }),
    ),
  );
  return outcomes.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.output);
}

const runArgs = (home: string, url: string, ...extra: string[]) => [
  '--home',
  home,
  'run',
  '--dataset',
  dataset,
  '--model',
  `openai-compatible:same-name@${url}/v1`,
  '--context-window',
  '128000',
  '--tokenizer',
  'o200k_base',
  ...extra,
];

describe('identity: run id and response cache', () => {
  it('the same model name on a second server is a new run, and that server is called for every sample', async () => {
    const home = join(scratch, 'two-servers');
    const first = await server('{"answer": "first"}');
    const second = await server('{"answer": "second"}');
    const one = await runCli(runArgs(home, first.url));
    expect(one.code).toBe(0);
    const two = await runCli(runArgs(home, second.url));
    expect(two.code).toBe(0);
    expect(first.requests).toHaveLength(TOTAL);
    expect(second.requests).toHaveLength(TOTAL);
    expect(two.stderr).toContain('0 from cache');
    expect(storeSnapshot(home)).toMatchObject({ runs: 2, results: 2 * TOTAL, responses: 2 * TOTAL });
    // Written another way (trailing slash, user info), the first server is the same endpoint:
    // its run resumes with nothing to do, and no key-like part of the URL is stored.
    const rewritten = runArgs(home, first.url).map((arg) =>
      arg.startsWith('openai-compatible:')
        ? arg.replace('http://', 'http://user:secret-pass@').replace(/\/v1$/, '/v1/')
        : arg,
    );
    const again = await runCli(rewritten);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`0 new, ${TOTAL} from before`);
    expect(first.requests).toHaveLength(TOTAL);
    expect(storeSnapshot(home)).toMatchObject({ runs: 2 });
    expect(filesContain(home, 'secret-pass')).toEqual([]);
  });

  it('another generation parameter is another cache entry: the server is asked again', async () => {
    const home = join(scratch, 'parameters');
    const only = await server('{"answer": "x"}');
    expect((await runCli(runArgs(home, only.url))).code).toBe(0);
    expect((await runCli(runArgs(home, only.url, '--temperature', '0.7'))).code).toBe(0);
    expect((await runCli(runArgs(home, only.url, '--max-output-tokens', '64'))).code).toBe(0);
    expect(only.requests).toHaveLength(3 * TOTAL);
    // The same configuration again: a resumed run, no request.
    expect((await runCli(runArgs(home, only.url, '--temperature', '0.7'))).code).toBe(0);
    expect(only.requests).toHaveLength(3 * TOTAL);
  });
});

describe('faults: retries, stops and exit codes', () => {
  it('completes every sample under 25 % injected faults of every kind', async () => {
    const home = join(scratch, 'faults');
    const faults: Behaviour[] = [
      { kind: 'status', status: 429, retryAfter: '0.05' },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'malformed' },
      { kind: 'cut' },
      { kind: 'reset' },
      { kind: 'hang' },
    ];
    const faulty = await server(() =>
      Math.random() < 0.25
        ? faults[Math.floor(Math.random() * faults.length)]!
        : { kind: 'answer', text: '{"answer": "x"}' },
    );
    const result = await runCli(runArgs(home, faulty.url, '--timeout-ms', '300', '--max-retries', '10'));
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Done: ${TOTAL} new`);
    const results = storedResults(home);
    expect(results).toHaveLength(TOTAL);
    expect(results.every((row) => row.status !== 'error')).toBe(true);
    // Every request beyond one per sample was a retry of a fault.
    expect(results.reduce((sum, row) => sum + row.attempts, 0)).toBe(faulty.requests.length);
  });

  it('a day-long Retry-After waits at most 60 s, and Ctrl-C ends the wait at once', async () => {
    const home = join(scratch, 'retry-after');
    const limited = await server(() => ({ kind: 'status', status: 429, retryAfter: '86400' }));
    const { child, done } = startCli(runArgs(home, limited.url, '--concurrency', '1'));
    while (limited.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stoppedAt = Date.now();
    child.kill('SIGINT');
    const result = await done;
    expect(Date.now() - stoppedAt).toBeLessThan(3000);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('retrying in 60.0 s');
    expect(limited.requests).toHaveLength(1);
  });

  it('an endpoint refusing the check before the run fails at once, one clear error, no retries, nothing stored', async () => {
    const home = join(scratch, 'unreachable');
    const gone = await startLlmTestServer();
    const url = gone.url;
    await gone.close();
    const started = Date.now();
    const result = await runCli(runArgs(home, url, '--concurrency', '8'));
    // Node's start and the dataset take about a second; the retries took 7 s more.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('Trying again');
    expect(result.stderr.match(/Cannot reach/g)).toHaveLength(1);
    expect(result.stderr).toMatch(
      /error \[ENDPOINT_UNREACHABLE\] Cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models \(ECONNREFUSED\) at the check before the run: no sample was sent\./,
    );
    expect(storeSnapshot(home)).toBe('absent');
  });

  it('a run in which every request fails exits 3 with a summary, attempts recorded as made', async () => {
    const home = join(scratch, 'all-fail');
    const broken = await server(() => ({ kind: 'status', status: 500 }));
    const result = await runCli(runArgs(home, broken.url, '--max-retries', '1'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Finished with errors: ');
    expect(result.stderr).toContain(`${TOTAL} samples got no answer (${TOTAL} × HTTP 500)`);
    expect(result.stderr).toContain('re-run the same command to retry only them');
    const results = storedResults(home);
    expect(results.every((row) => row.status === 'error' && row.attempts === 2)).toBe(true);
    expect(results[0]!.error).toMatch(/answered HTTP 500.*\(2 attempts in [\d.]+ s\)/);
    expect(broken.requests).toHaveLength(2 * TOTAL);
  });

  it('a non-retryable answer is one attempt; --fail-fast stops at the first', async () => {
    const home = join(scratch, 'fail-fast');
    const refusing = await server(() => ({
      kind: 'status',
      status: 400,
      body: '{"error": "prompt too long"}',
    }));
    const result = await runCli(runArgs(home, refusing.url, '--concurrency', '1', '--fail-fast'));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Stopped at the first sample without an answer (--fail-fast)');
    expect(refusing.requests).toHaveLength(1);
    expect(storedResults(home)).toEqual([
      { status: 'error', attempts: 1, error: expect.stringContaining('HTTP 400') },
    ]);
  });
});

/** What `medbench view` on `home` answers for its overview, a run's samples and their first sample. */
async function viewerAnswers(
  home: string,
  environment: NodeJS.ProcessEnv,
  runId: string,
): Promise<Record<string, string>> {
  const viewer = startCli(['--home', home, 'view'], environment);
  try {
    const url = await new Promise<string>((resolve) => {
      let seen = '';
      viewer.child.stdout!.on('data', (chunk) => {
        seen += chunk;
        const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
        if (match) resolve(match[1]!);
      });
    });
    const overview = await (await fetch(`${url}api/overview`)).text();
    const samples = await (await fetch(`${url}api/samples?run=${runId}&group=niah-en`)).text();
    const sampleId = (JSON.parse(samples) as { rows: Array<{ id: string }> }).rows[0]!.id;
    const sample = await (
      await fetch(`${url}api/sample?run=${runId}&id=${encodeURIComponent(sampleId)}`)
    ).text();
    return { 'viewer overview': overview, 'viewer samples': samples, 'viewer sample': sample };
  } finally {
    viewer.child.kill('SIGTERM');
    await viewer.done;
  }
}

/** The run's output, `report --json` and the viewer's answers on its first run: all a user is shown. */
async function everythingShown(
  home: string,
  environment: NodeJS.ProcessEnv,
  run: { stdout: string; stderr: string },
): Promise<Record<string, string>> {
  const report = await runCli(['--home', home, 'report', '--json'], environment);
  const runId = (JSON.parse(report.stdout) as { runs: Array<{ runId: string }> }).runs[0]!.runId;
  return {
    'run stderr': run.stderr,
    'run stdout': run.stdout,
    'report --json': report.stdout,
    ...(await viewerAnswers(home, environment, runId)),
  };
}

describe('secrets', () => {
  it('a key echoed back by an endpoint reaches no terminal, store, report, page or viewer answer', async () => {
    const home = join(scratch, 'echo');
    const key = 'sk-test-SECRET-0123456789abcdef';
    const echoing = await server(() => ({ kind: 'status', status: 400, body: '' }));
    echoing.fallback = (request) => ({
      kind: 'status',
      status: 400,
      body: JSON.stringify({ error: 'bad request', received: request.headers }),
    });
    const environment = { MEDBENCH_TEST_KEY: key };
    const run = await runCli(runArgs(home, echoing.url, '--api-key-env', 'MEDBENCH_TEST_KEY'), environment);
    expect(run.code).toBe(3);
    // The server did get the key, and echoed it.
    expect(echoing.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(run.stderr).toContain('[redacted]');
    const site = join(home, 'site');
    expect((await runCli(['--home', home, 'report', '--html', site], environment)).code).toBe(0);
    const shown = await everythingShown(home, environment, run);
    expect(shown['viewer sample']).toContain('[redacted]');
    for (const [where, text] of Object.entries(shown)) expect(text.includes(key), where).toBe(false);
    // Store, WAL, static site: not one file holds it.
    expect(filesContain(home, key)).toEqual([]);
    expect(filesContain(home, 'SECRET-0123')).toEqual([]);
  });

  it('an API key and a header secret echoed in a 200 answer are stored and shown nowhere', async () => {
    const home = join(scratch, 'echo-200');
    const key = 'sk-test-ANSWER-KEY-9876543210';
    const gateway = 'gw-HEADER-SECRET-24680';
    const echoing = await server(() => ({ kind: 'status', status: 500 }));
    // The answer (and so the parsed answer, the response cache and the viewer's sample) holds both.
    echoing.fallback = (request) => ({
      kind: 'answer',
      text: JSON.stringify({
        answer: `${request.headers.authorization} ${request.headers['x-gateway-key']}`,
      }),
    });
    const config = join(scratch, 'echo-200.json');
    writeFileSync(
      config,
      JSON.stringify({
        models: {
          echo: {
            provider: 'openai-compatible',
            model: 'echo',
            contextWindow: 128000,
            tokenizer: 'o200k_base',
            endpoints: [
              {
                baseURL: `${echoing.url}/v1`,
                apiKeyEnv: 'MEDBENCH_TEST_KEY',
                headers: { 'X-Gateway-Key': { env: 'MEDBENCH_GATEWAY_KEY' } },
              },
            ],
          },
        },
      }),
    );
    const environment = { MEDBENCH_TEST_KEY: key, MEDBENCH_GATEWAY_KEY: gateway };
    const run = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'echo', '--config', config],
      environment,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(echoing.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(echoing.requests[0]!.headers['x-gateway-key']).toBe(gateway);
    const shown = await everythingShown(home, environment, run);
    expect(shown['viewer sample']).toContain('Bearer [redacted] [redacted]');
    for (const secret of [key, gateway]) {
      for (const [where, text] of Object.entries(shown)) expect(text.includes(secret), where).toBe(false);
      // Every byte of every file of the home: the store, its WAL, the claims, the caches.
      expect(filesContain(home, secret)).toEqual([]);
    }
  });
});

describe('several processes on one home', () => {
  it('two runs of the same configuration at once pay for each answer once', async () => {
    const home = join(scratch, 'twins');
    const slow = await server(() => ({ kind: 'answer', text: '{"answer": "x"}', delayMs: 150 }));
    const [one, two] = await Promise.all([
      runCli(runArgs(home, slow.url, '--concurrency', '4')),
      runCli(runArgs(home, slow.url, '--concurrency', '4')),
    ]);
    expect([one.code, two.code]).toEqual([0, 0]);
    const prompts = slow.requests.map((request) => JSON.stringify(request.body.messages));
    expect(new Set(prompts).size).toBe(TOTAL);
    expect(prompts).toHaveLength(TOTAL);
    expect(storeSnapshot(home)).toMatchObject({ runs: 1, results: TOTAL, responses: TOTAL });
  });

  it('twelve processes creating and migrating one new store at the same moment all succeed', async () => {
    const path = join(scratch, 'race', 'medbench.sqlite');
    const failed = await atTheSameMoment(12, [
      `const { Store } = await import(${JSON.stringify(join(ROOT, 'dist', 'index.js'))});`,
      `const store = new Store(${JSON.stringify(path)});`,
      'store.transaction(() => {});',
      'store.close();',
    ]);
    expect(failed).toEqual([]);
    const database = new Database(path, { readonly: true });
    expect(database.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    database.close();
  });

  it('twelve processes opening the request claims of a new home at the same moment all succeed, five times over', async () => {
    const module = join(ROOT, 'dist', 'store', 'request-claims.js');
    for (let round = 0; round < 5; round++) {
      const path = join(scratch, `claims-race-${round}`, 'medbench.sqlite');
      const failed = await atTheSameMoment(12, [
        `const { RequestClaims } = await import(${JSON.stringify(module)});`,
        `const claims = RequestClaims.beside(${JSON.stringify(path)});`,
        "claims.claim('key');",
        'claims.close();',
      ]);
      expect(failed, `round ${round}`).toEqual([]);
    }
  });

  it('a run starts while another process holds the lock of the new claims file, before it is in WAL mode', async () => {
    // The moment that failed 2 in 30 of six processes started at once on a new home, made to last:
    // SQLite answered the switch to WAL with SQLITE_BUSY at once ('database is locked').
    const home = join(scratch, 'claims-held');
    mkdirSync(home, { recursive: true });
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import Database from 'better-sqlite3';
         const database = new Database(${JSON.stringify(join(home, 'claims.sqlite'))});
         database.exec('BEGIN IMMEDIATE; CREATE TABLE held (a)');
         console.log('held');
         setTimeout(() => { database.exec('COMMIT'); database.close(); }, 4000);`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const released = new Promise((resolve) => holder.once('close', resolve));
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    const quick = await server('{"answer": "x"}');
    const result = await runCli(runArgs(home, quick.url));
    await released;
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    expect(quick.requests).toHaveLength(TOTAL);
  });

  it('six processes creating a new store at once all succeed, and each answer is paid once', async () => {
    const home = join(scratch, 'six');
    const quick = await server(() => ({ kind: 'answer', text: '{"answer": "x"}', delayMs: 20 }));
    const results = await Promise.all(Array.from({ length: 6 }, () => runCli(runArgs(home, quick.url))));
    for (const result of results) {
      expect(result.stderr).not.toMatch(/error \[|already exists/);
      expect(result.code).toBe(0);
    }
    expect(quick.requests).toHaveLength(TOTAL);
    expect(storeSnapshot(home)).toMatchObject({ runs: 1, results: TOTAL, responses: TOTAL });
  });
});

/** A tmpfs this test can remount read-only (root on Linux); elsewhere the test is skipped. */
function readOnlyMount(): string | undefined {
  const folder = join(scratch, 'read-only');
  try {
    mkdirSync(folder, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', folder], { stdio: 'ignore' });
    return folder;
  } catch {
    return undefined;
  }
}
const mounted = process.platform === 'linux' ? readOnlyMount() : undefined;
afterAll(() => {
  if (mounted) execFileSync('umount', [mounted], { stdio: 'ignore' });
});

describe.skipIf(!mounted)('a store on a read-only file system', () => {
  it('report and view read it; nothing tries to write', async () => {
    const home = join(mounted!, 'home');
    expect((await runCli(['--home', home, 'demo'])).code).toBe(0);
    execFileSync('mount', ['-o', 'remount,ro', mounted!]);
    try {
      const report = await runCli(['--home', home, 'report', '--json']);
      expect(report.stderr).toBe('');
      expect(report.code).toBe(0);
      expect((JSON.parse(report.stdout) as { runs: unknown[] }).runs.length).toBeGreaterThan(0);
      const viewer = startCli(['--home', home, 'view']);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let seen = '';
          viewer.child.stdout!.on('data', (chunk) => {
            seen += chunk;
            const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
            if (match) resolve(match[1]!);
          });
          viewer.child.on('close', () => reject(new Error('the viewer exited')));
        });
        const overview = (await (await fetch(`${url}api/overview`)).json()) as { runs?: unknown[] };
        expect(JSON.stringify(overview)).toContain('baseline');
      } finally {
        viewer.child.kill('SIGTERM');
        await viewer.done;
      }
      // A command that writes says what is wrong.
      const write = await runCli(['--home', home, 'demo']);
      expect(write.code).toBe(1);
      expect(write.stderr).toMatch(
        /error \[FILE_ERROR\] Cannot write .*: the file system is read-only \(EROFS\)/,
      );
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mounted!]);
    }
  });
});
