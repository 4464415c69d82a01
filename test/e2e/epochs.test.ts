import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from '../support/llm-test-server.js';
import { type OpenAIPlatform, startOpenAIPlatform } from '../support/platform/openai-platform.js';
import { modelConfig, variedAnswer } from './batch-runs.js';
import { buildSampleNiah, runCli, startCli, startViewer, temporaryHome } from './cli.js';
import { resultIds, storeSnapshot } from './store-snapshot.js';

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
/** Each sample's prompt and its gold answer, from the dataset file. */
let samples: Array<{ id: string; prompt: string; answer: string }>;
let server: LlmTestServer;
/** OpenAI's API with its Batch API, for --batch. */
let platform: OpenAIPlatform;

/** The sample a request asks about (its last message is the sample's prompt). */
function sampleOf(request: RecordedRequest): { id: string; prompt: string; answer: string } {
  const messages = request.body.messages as Array<{ content: string }>;
  const last = messages.at(-1)!.content;
  const sample = samples.find((each) => last.includes(each.prompt));
  if (!sample) throw new Error('a request for no sample of the dataset');
  return sample;
}

/** The request's epoch, by the seed medbench sends: none for epoch 1, then 1, 2 … */
const seedOf = (request: RecordedRequest) => request.body.seed as number | undefined;

beforeAll(async () => {
  await buildSampleNiah(dataset);
  samples = readFileSync(dataset, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line))
    .map((sample) => ({ id: sample.id, prompt: sample.prompt, answer: sample.gold.answers[0] }));
  // A model that finds the needle with seed 2 only: epoch scores 0, 0, 1 for every sample.
  server = await startLlmTestServer({
    fallback: (request) => ({
      kind: 'answer',
      text: JSON.stringify({ answer: seedOf(request) === 2 ? sampleOf(request).answer : 'x' }),
    }),
  });
  platform = await startOpenAIPlatform({ answer: variedAnswer });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await server.close();
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

const runArgs = (home: string, extra: readonly string[]) => [
  ...['--home', home, 'run', '--dataset', dataset, '--model', `openai-compatible:m@${server.url}/v1`],
  ...['--context-window', '128000', ...extra],
];

/** The NIAH ESM of the run the report shows (`report --json`), in percent, and the run's id. */
async function reportedRun(home: string, reducer: string): Promise<{ runId: string; esm: number }> {
  const printed = await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--json']);
  expect(printed.code, printed.stderr).toBe(0);
  const document = JSON.parse(printed.stdout);
  const settings = document.settings.find(
    (entry: { settings: { epochReducers: Record<string, string> } }) =>
      entry.settings.epochReducers?.niah === reducer,
  );
  expect(settings.text).toContain(`3 epochs, ${reducer}`);
  const run = document.runs.find((entry: { runId: string }) => entry.runId === settings.runId);
  const { correct, counted } = run.niah.en.esm.all;
  expect(counted).toBe(samples.length);
  return { runId: settings.runId, esm: (100 * correct) / counted };
}

const niahScore = async (home: string, reducer: string) => (await reportedRun(home, reducer)).esm;

/** What the viewer's run page shows of a run's English NIAH: its ESM in percent, and the list's ids. */
async function viewerRunPage(
  url: string,
  runId: string,
): Promise<{ esm: number; samples: number; ids: string[] }> {
  const summary = (await (await fetch(`${url}api/run?id=${runId}`)).json()) as {
    groups: Array<{ group: string; samples: number; metrics: Record<string, { estimate: number }> }>;
  };
  const group = summary.groups.find((entry) => entry.group === 'niah-en')!;
  const list = (await (await fetch(`${url}api/samples?run=${runId}&group=niah-en&limit=500`)).json()) as {
    rows: Array<{ id: string }>;
  };
  return {
    esm: 100 * group.metrics.esm!.estimate,
    samples: group.samples,
    ids: list.rows.map((row) => row.id),
  };
}

describe('run --epochs', () => {
  it('sends each sample 3 times with distinct seeds, stores each epoch, re-runs send nothing, and reducers score as defined', async () => {
    const home = temporaryHome();
    const first = await runCli(runArgs(home, ['--epochs', '3']));
    expect(first.code, first.stderr).toBe(0);
    expect(server.requests).toHaveLength(3 * samples.length);
    expect(first.stderr).toContain(
      `${3 * samples.length} sample epochs (${samples.length} samples × 3 epochs)`,
    );
    for (const sample of samples) {
      const seeds = server.requests.filter((request) => sampleOf(request).id === sample.id).map(seedOf);
      expect(seeds.sort()).toEqual([1, 2, undefined]);
    }
    // Each epoch a result of its own; epoch 1 under the sample's id.
    expect(resultIds(home).sort()).toEqual(
      samples.flatMap((sample) => [sample.id, `${sample.id}#epoch2`, `${sample.id}#epoch3`]).sort(),
    );
    // NIAH is right or wrong: majority by default, named with K in the run's closing report.
    expect(first.stdout).toContain('3 epochs, majority');
    // The same run again: every epoch is stored, nothing is sent.
    const again = await runCli(runArgs(home, ['--epochs', '3']));
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests).toHaveLength(3 * samples.length);
    // Other reducers are other runs, answered from the response cache: nothing sent either.
    for (const reducer of ['mean', 'max', 'pass@2'])
      expect((await runCli(runArgs(home, ['--epochs', '3', '--epoch-reducer', reducer]))).code).toBe(0);
    expect(server.requests).toHaveLength(3 * samples.length);
    // Every sample's epochs scored 0, 0, 1.
    expect(await niahScore(home, 'majority')).toBeCloseTo(0, 6);
    expect(await niahScore(home, 'mean')).toBeCloseTo(100 / 3, 6);
    expect(await niahScore(home, 'max')).toBeCloseTo(100, 6);
    // pass@2 of n = 3, c = 1: 1 − C(2,2)/C(3,2) = 2/3.
    expect(await niahScore(home, 'pass@2')).toBeCloseTo(200 / 3, 6);
    // The viewer's run page scores each sample's epochs reduced as the report does (majority: 0,
    // not the mean of the epoch rows, 1/3), and its list still opens every epoch's answer.
    const { viewer, url } = await startViewer(home);
    try {
      for (const reducer of ['majority', 'mean']) {
        const reported = await reportedRun(home, reducer);
        const page = await viewerRunPage(url, reported.runId);
        expect(page.esm, reducer).toBeCloseTo(reported.esm, 6);
        expect(page.samples).toBe(samples.length);
        expect(page.ids.sort()).toEqual(
          samples.flatMap((sample) => [sample.id, `${sample.id}#epoch2`, `${sample.id}#epoch3`]).sort(),
        );
      }
    } finally {
      viewer.child.kill('SIGINT');
      await viewer.done;
    }
  });

  it('epoch 1 is the request of a run without epochs: a run with --epochs 3 after one sends only epochs 2 and 3', async () => {
    const home = temporaryHome();
    expect((await runCli(runArgs(home, []))).code).toBe(0);
    expect(server.requests).toHaveLength(samples.length);
    expect(server.requests.every((request) => seedOf(request) === undefined)).toBe(true);
    server.requests.length = 0;
    expect((await runCli(runArgs(home, ['--epochs', '3']))).code).toBe(0);
    expect(server.requests.map(seedOf).sort()).toEqual(samples.flatMap(() => [1, 2]).sort());
    // compare pairs each sample once, its epochs reduced as the report reduces them (max: 0, 0, 1 → 1).
    expect((await runCli(runArgs(home, ['--epochs', '3', '--epoch-reducer', 'max']))).code).toBe(0);
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'medodyssey', '--json'])).stdout,
    );
    const single = report.settings.find((entry: { settings: object }) => !('epochs' in entry.settings)).runId;
    const most = report.settings.find(
      (entry: { settings: { epochReducers?: Record<string, string> } }) =>
        entry.settings.epochReducers?.niah === 'max',
    ).runId;
    const compared = await runCli(['--home', home, 'compare', single, most, '--json']);
    expect(compared.code, compared.stderr).toBe(0);
    const niah = JSON.parse(compared.stdout).tasks.find((task: { task: string }) => task.task === 'En.NIAH');
    expect(niah).toMatchObject({
      n: samples.length,
      a: 0,
      b: 1,
      onlyInA: { count: 0 },
      onlyInB: { count: 0 },
    });
  });

  it('a killed run resumes with the missing epochs only', async () => {
    const home = temporaryHome();
    const args = runArgs(home, ['--epochs', '3', '--concurrency', '1']);
    const { child, done } = startCli(args);
    // Killed once a third of the requests were answered.
    server.onAnswered = () => {
      if (server.requests.length >= samples.length) child.kill('SIGKILL');
    };
    await done;
    server.onAnswered = undefined;
    const stored = new Set(resultIds(home, { missingStore: [] }));
    expect(stored.size).toBeLessThan(3 * samples.length);
    const before = server.requests.length;
    const resumed = await runCli(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = server.requests.slice(before).map((request) => {
      const epoch = (seedOf(request) ?? 0) + 1;
      return epoch === 1 ? sampleOf(request).id : `${sampleOf(request).id}#epoch${epoch}`;
    });
    // Only epochs the killed run had not stored, each once; one it was answered but killed before
    // storing comes from the response cache, as the run's summary says.
    const missing = samples
      .flatMap((sample) => [sample.id, `${sample.id}#epoch2`, `${sample.id}#epoch3`])
      .filter((id) => !stored.has(id));
    expect(new Set(sent).size).toBe(sent.length);
    expect(sent.filter((id) => !missing.includes(id))).toEqual([]);
    expect(resumed.stderr).toContain(
      `Done: ${missing.length} new, ${stored.size} from before, ${missing.length - sent.length} from cache`,
    );
    expect(sent.length).toBeGreaterThan(0);
    expect(resultIds(home)).toHaveLength(3 * samples.length);
  });

  it('--dry-run counts every epoch, and export requests writes every epoch under its own custom id', async () => {
    const home = temporaryHome();
    const dry = await runCli(runArgs(home, ['--epochs', '3', '--dry-run']));
    expect(dry.code, dry.stderr).toBe(0);
    const single = await runCli(runArgs(home, ['--dry-run']));
    // The `all` row: samples, stored, too_long, prompt tokens, output limit — each three times one epoch's.
    const all = (stdout: string) =>
      stdout
        .split('\n')
        .find((line) => line.startsWith('all\t'))!
        .split('\t')
        .slice(1, 6)
        .map(Number);
    expect(all(single.stdout)[0]).toBe(samples.length);
    expect(all(dry.stdout)).toEqual(all(single.stdout).map((count) => 3 * count));
    expect(dry.stdout).toContain(
      'Each sample 3 times (--epochs 3): the counts and costs above are of every epoch.',
    );
    expect(single.stdout).not.toContain('--epochs');
    const out = join(scratch, 'requests.jsonl');
    const exported = await runCli([
      ...['--home', home, 'export', 'requests', '--dataset', dataset, '--out', out],
      ...['--model', `openai-compatible:m@${server.url}/v1`, '--context-window', '128000', '--epochs', '3'],
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3 * samples.length);
    expect(new Set(lines.map((line) => line.custom_id)).size).toBe(3 * samples.length);
    expect(
      lines
        .map((line) => line.body.seed)
        .filter((seed) => seed !== undefined)
        .sort(),
    ).toEqual(samples.flatMap(() => [1, 2]).sort());
    expect(server.requests).toHaveLength(0);
  });

  it('refuses --epochs above 1 at temperature 0 on a provider without a seed, before anything is sent or stored', async () => {
    const home = temporaryHome();
    const config = join(scratch, 'anthropic.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        models: {
          claude: {
            provider: 'anthropic',
            model: 'claude-sonnet-4-5',
            endpoints: [{ baseURL: server.url, apiKeyEnv: 'ANTHROPIC_KEY_FOR_TEST' }],
          },
        },
      }),
    );
    const refused = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'claude', '--config', config, '--epochs', '3'],
      { ANTHROPIC_KEY_FOR_TEST: 'test-key' },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--epochs 3 at temperature 0: anthropic takes no seed');
    expect(refused.stderr).toContain('--temperature');
    expect(storeSnapshot(home)).toBe('absent');
    expect(server.requests).toHaveLength(0);
  });

  it('--batch submits every epoch under its own custom id, and the run then sends nothing', async () => {
    const home = temporaryHome();
    const config = modelConfig(scratch, {
      provider: 'openai',
      model: 'gpt-4.1',
      endpoints: [{ baseURL: `${platform.url}/v1`, apiKeyEnv: 'OPENAI_KEY_FOR_TEST' }],
    });
    const args = [
      ...['--home', home, 'run', '--dataset', dataset, '--model', 'gpt', '--config', config],
      ...['--epochs', '3'],
    ];
    const environment = { OPENAI_KEY_FOR_TEST: 'sk-test-epochs' };
    const batched = await runCli([...args, '--batch', '--batch-poll-ms', '20'], environment);
    expect(batched.code, batched.stderr).toBe(0);
    expect(platform.received.syncRequests).toBe(0);
    expect(platform.received.batchLines.size).toBe(3 * samples.length);
    expect([...platform.received.batchLines.values()].every((count) => count === 1)).toBe(true);
    expect(resultIds(home)).toHaveLength(3 * samples.length);
    const again = await runCli(args, environment);
    expect(again.code, again.stderr).toBe(0);
    expect(platform.received.syncRequests).toBe(0);
  });
});
