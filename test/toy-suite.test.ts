import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProgram } from '../src/cli/main.js';
import { bindModel } from '../src/compose/bind-model.js';
import { configSchema, configSchemaFor, loadConfig } from '../src/compose/config.js';
import { probeEndpoints } from '../src/compose/probe-endpoints.js';
import { providerRows, providersMarkdownTable } from '../src/compose/provider-table.js';
import { SUITE_PLUGINS, SUITES } from '../src/compose/suites.js';
import type { RunRecord } from '../src/core/run-record.js';
import { providersWith } from '../src/providers/registry.js';
import { readDataset, writeDataset } from '../src/runner/dataset-file.js';
import { DEFAULT_RETRY_POLICY } from '../src/runner/retry.js';
import { runSamples } from '../src/runner/run-samples.js';
import { Store } from '../src/store/store.js';
import { openRunFile, sampleListFrom } from '../src/view/shared/run-file-payloads.js';
import { RESERVED_FILTER_NAMES } from '../src/view/shared/sample-list.js';
import { runKey } from '../src/view/shared/static-files.js';
import type { RunFile } from '../src/view/shared/view-types.js';
import { writeStaticSite } from '../src/view/static-site.js';
import { ViewData } from '../src/view/view-data.js';
import { apiPayload } from '../src/view/view-server.js';
import { type LlmTestServer, startLlmTestServer } from './support/llm-test-server.js';
import { staticPayloadText } from './support/static-payload.js';
import { testRun } from './support/test-run.js';
import { startAbacusServer } from './support/toy-suite/abacus/abacus-server.js';
import { abacusProvider } from './support/toy-suite/abacus/descriptor.js';
import { arithPlugin } from './support/toy-suite/plugin.js';
import { arithSuite, buildArithSamples } from './support/toy-suite/suite.js';

/** docs/adding-a-suite.md: a fourth suite goes through the same run, report and viewer code as the three. */

let scratch: string;
let server: LlmTestServer;
const suites = [...SUITES, arithSuite];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'medbench-toy-'));
  // A model that adds correctly in English and is off by one in German.
  server = await startLlmTestServer({
    fallback: (request) => {
      const messages = request.body.messages as Array<{ content: string }>;
      const [left, right] = (messages.at(-1)!.content.match(/\d+/g) ?? []).map(Number);
      const german = messages.at(-1)!.content.startsWith('Was');
      return { kind: 'answer', text: `The answer is ${left! + right! + (german ? 1 : 0)}.` };
    },
  });
});

afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function runArith(store: Store): Promise<RunRecord> {
  const path = join(scratch, 'arith.jsonl');
  await writeDataset({
    path,
    header: {
      suite: 'arith',
      createdAt: '2026-11-23T00:00:00Z',
      generator: 'test',
      build: {},
      tokenizers: [],
    },
    samples: buildArithSamples([
      [2, 3],
      [4, 4],
      [7, 8],
    ]),
  });
  const dataset = await readDataset(path);
  const model = await bindModel({
    spec: `openai-compatible:toy-model@${server.url}/v1`,
    config: configSchema.parse({}),
    overrides: { contextWindow: 4096 },
  });
  const run: RunRecord = {
    id: 'arith-run',
    suite: 'arith',
    label: 'toy-model',
    datasetId: dataset.id,
    datasetPath: path,
    model: { provider: 'openai-compatible', modelId: 'toy-model' },
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: '2026-11-23T00:00:00Z',
  };
  const summary = await runSamples({
    store,
    run,
    samples: dataset.samples,
    tasks: arithSuite.tasks!,
    model,
    retry: DEFAULT_RETRY_POLICY,
    timeoutMs: 5000,
  });
  expect(summary.done).toBe(6);
  return run;
}

describe('a fourth suite, registered beside the three', () => {
  it('is run, scored, reported and shown by the same code as the others', async () => {
    const store = new Store(join(scratch, 'store.sqlite'));
    try {
      const run = await runArith(store);
      expect(server.requests).toHaveLength(6);
      const stored = store.results(run.id);
      expect(stored.map((result) => [result.sampleId, result.scores.exact]).sort()).toEqual([
        ['sum-de-2-3', 0],
        ['sum-de-4-4', 0],
        ['sum-de-7-8', 0],
        ['sum-en-2-3', 1],
        ['sum-en-4-4', 1],
        ['sum-en-7-8', 1],
      ]);

      const report = arithSuite.report([{ run, results: stored }], {});
      expect(report.runs[0]!.accuracy).toEqual({ en: 100, de: 0 });
      expect(arithSuite.renderText(report, {})).toContain('toy-model');

      const view = new ViewData(store, suites);
      expect(view.overview().suites.map((suite) => suite.suite)).toEqual([
        'medodyssey',
        'clue',
        'medeureka',
        'arith',
      ]);
      expect(view.leaderboard('arith')!.rows[0]!.values.accuracy).toEqual({ en: 100, de: 0 });
      const summary = view.runSummary(run.id)!;
      expect(summary.groups.map((group) => [group.group, group.primary, group.samples])).toEqual([
        ['sum-de', 'exact', 3],
        ['sum-en', 'exact', 3],
      ]);
      expect(view.sampleList(run.id, 'sum-de')!.rows.map((row) => row.scores.exact)).toEqual([0, 0, 0]);
      expect(view.sample(run.id, 'sum-en-7-8')!.parsed).toBe(15);

      const site = join(scratch, 'site');
      const { files } = writeStaticSite(store, site, suites);
      expect(files).toBe(readdirSync(join(site, 'data')).length + 3);
      const pages = readdirSync(join(site, 'data')).map((file) =>
        staticPayloadText(join(site, 'data', file)),
      );
      expect(pages.some((page) => page.includes('"suite":"arith"') && page.includes('"Accuracy"'))).toBe(
        true,
      );
    } finally {
      store.close();
    }
  });

  it("gets its own declared sample filter in the viewer's API and static site, and no other suite's", async () => {
    const store = new Store(join(scratch, 'filters.sqlite'));
    try {
      const run = await runArith(store);
      const view = new ViewData(store, suites);
      // The API's samples route, as the server answers it: the query's `size` is the suite's filter.
      const list = (query: string) =>
        apiPayload(view, 'samples', new URLSearchParams(`run=${run.id}&group=sum-en&${query}`)) as {
          filters: unknown;
          options: unknown;
          ids?: unknown;
          rows: Array<{ id: string }>;
        };
      const all = list('');
      expect(all.filters).toEqual([{ param: 'size', label: 'sum size' }]);
      expect(all.options).toEqual({ status: ['ok'], size: ['large', 'small'] });
      expect(list('size=small').rows.map((row) => row.id)).toEqual(['sum-en-2-3', 'sum-en-4-4']);
      expect(list('size=large').rows.map((row) => row.id)).toEqual(['sum-en-7-8']);
      // MedOdyssey's filters are MedOdyssey's: `level` means nothing to arith's list.
      expect(list('level=4000').rows).toHaveLength(3);
      const sample = apiPayload(
        view,
        'sample',
        new URLSearchParams(`run=${run.id}&id=sum-en-7-8&size=small`),
      ) as {
        neighbours: unknown;
        within: unknown;
      };
      expect(sample.neighbours).toEqual({ previous: null, next: null });
      expect(sample.within).toEqual({ size: 'small' });
      const unfiltered = apiPayload(
        view,
        'sample',
        new URLSearchParams(`run=${run.id}&id=sum-en-7-8&level=4000`),
      );
      expect((unfiltered as { within: unknown }).within).toEqual({});

      // The static site computes the same list from the run's file.
      const site = join(scratch, 'filters-site');
      writeStaticSite(store, site, suites);
      const file = openRunFile(
        JSON.parse(staticPayloadText(join(site, 'data', `${runKey(run.id)}.js`))) as RunFile,
      );
      const offline = sampleListFrom(file, 'sum-en', { size: 'small' }, { offset: 0, limit: 100 });
      expect(offline?.filters).toEqual([{ param: 'size', label: 'sum size' }]);
      expect(offline?.rows.map((row) => row.id)).toEqual(['sum-en-2-3', 'sum-en-4-4']);
    } finally {
      store.close();
    }
  });

  it("no suite's sample filter takes a name the viewer's routes or generic filters use", () => {
    for (const suite of suites)
      for (const filter of suite.sampleFilters ?? [])
        expect(RESERVED_FILTER_NAMES).not.toContain(filter.param);
    expect(
      suites.find((suite) => suite.name === 'medodyssey')!.sampleFilters?.map((filter) => filter.param),
    ).toEqual(['level', 'depth']);
  });

  it('a sample whose gold does not have the task shape is refused before any request', async () => {
    const store = new Store(join(scratch, 'refused.sqlite'));
    const before = server.requests.length;
    try {
      const [sample] = buildArithSamples([[1, 1]]);
      await expect(
        runSamples({
          store,
          run: testRun({ id: 'refused', suite: 'arith', label: 'toy-model', datasetId: 'x' }),
          samples: [{ ...sample!, gold: { total: 'two' } }],
          tasks: arithSuite.tasks!,
          model: await bindModel({
            spec: `openai-compatible:toy-model@${server.url}/v1`,
            config: configSchema.parse({}),
          }),
          retry: DEFAULT_RETRY_POLICY,
          timeoutMs: 5000,
        }),
      ).rejects.toThrow(/sum-en-1-1: its gold data is not what the arith task "sum" scores against/);
      expect(server.requests.length).toBe(before);
      expect(store.getRun('refused')).toBeUndefined();
    } finally {
      store.close();
    }
  });
});

describe("a fourth suite's own commands and run, through its plugin (no file in src/cli changes)", () => {
  /** The CLI as `medbench` builds it, knowing the toy suite too; what it writes to stderr is kept. */
  async function medbench(...args: string[]): Promise<{ stderr: string; code: number }> {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((text: string) => written.push(String(text)) > 0) as typeof process.stderr.write;
    process.exitCode = undefined;
    try {
      await createProgram({ plugins: [...SUITE_PLUGINS, arithPlugin] }).parseAsync([
        'node',
        'medbench',
        ...args,
      ]);
    } finally {
      process.stderr.write = write;
    }
    const code = Number(process.exitCode ?? 0);
    process.exitCode = undefined;
    return { stderr: written.join(''), code };
  }

  it('builds with `build arith`, runs with `run arith` (a dry run sends nothing), and is reported', async () => {
    const home = join(scratch, 'plugin-home');
    const dataset = join(scratch, 'plugin-arith.jsonl');
    expect(await medbench('--home', home, 'build', 'arith', '--pairs', '2+3,4+4', '--out', dataset)).toEqual({
      stderr: `Wrote 4 samples to ${dataset}.\n`,
      code: 0,
    });
    const model = ['--model', `openai-compatible:toy-model@${server.url}/v1`, '--context-window', '4096'];
    const sent = server.requests.length;
    expect(
      (await medbench('--home', home, 'run', 'arith', '--data', dataset, ...model, '--dry-run')).code,
    ).toBe(0);
    expect(server.requests.length).toBe(sent);
    const { stderr: log, code } = await medbench('--home', home, 'run', 'arith', '--data', dataset, ...model);
    expect(code, log).toBe(0);
    expect(log).toMatch(/Run [0-9a-f]{16}: 4 samples of .*plugin-arith\.jsonl on toy-model/);
    expect(server.requests.length).toBe(sent + 4);
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const [run] = store.listRuns({ suite: 'arith' });
      const scores = store.results(run!.id).map((result) => `${result.sampleId}:${result.scores.exact}`);
      // Correct in English, off by one in German (the server's answers).
      expect(scores.sort()).toEqual(['sum-de-2-3:0', 'sum-de-4-4:0', 'sum-en-2-3:1', 'sum-en-4-4:1']);
    } finally {
      store.close();
    }
    const missing = await medbench('--home', home, 'run', 'arith', ...model);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.stderr).toContain('run arith needs --data <an Arith dataset file>.');
    // A bad value is commander's usage error (exit code 2 in `main`), in the suite's own words.
    await expect(
      medbench('--home', home, 'build', 'arith', '--pairs', '2-3', '--out', dataset),
    ).rejects.toThrow('"2-3" is not a sum such as 2+3');
  });
});

describe('a toy provider, added as docs/adding-a-provider.md says', () => {
  // Step 3 of the guide, for a caller outside src/: medbench's providers and this one.
  const providers = providersWith([abacusProvider]);

  it('is configured, checked, bound and run end to end through the registry', async () => {
    const abacus = await startAbacusServer({ key: 'k-abacus', models: { 'adder-1': 4096 } });
    const store = new Store(join(scratch, 'abacus.sqlite'));
    try {
      // A config file naming it, loaded with the registry that holds it.
      const path = join(scratch, 'medbench.config.json');
      writeFileSync(
        path,
        JSON.stringify({
          models: {
            adder: {
              provider: 'abacus',
              model: 'adder-1',
              endpoints: [{ baseURL: abacus.url, apiKeyEnv: 'ABACUS_KEY', ledger: 'arith' }],
              seed: 7,
            },
          },
        }),
      );
      const { config } = await loadConfig(path, { providers });
      const model = await bindModel({
        spec: 'adder',
        config,
        providers,
        environment: { ABACUS_KEY: 'k-abacus' },
        overrides: { contextWindow: 2048 },
      });
      expect(model.endpoints.map((endpoint) => endpoint.model.provider)).toEqual(['abacus']);
      expect(await probeEndpoints(model)).toEqual([]);

      const samples = buildArithSamples([
        [2, 3],
        [7, 8],
      ]);
      const run = testRun({ id: 'abacus-run', suite: 'arith', label: 'adder', datasetId: 'toy' });
      const summary = await runSamples({
        store,
        run,
        samples,
        tasks: arithSuite.tasks!,
        model,
        retry: DEFAULT_RETRY_POLICY,
        timeoutMs: 5000,
      });
      expect(summary.done).toBe(4);
      expect(
        store
          .results(run.id)
          .map((result) => [result.sampleId, result.scores.exact])
          .sort(),
      ).toEqual([
        ['sum-de-2-3', 1],
        ['sum-de-7-8', 1],
        ['sum-en-2-3', 1],
        ['sum-en-7-8', 1],
      ]);
      // What Abacus received: the model check, then one answer request per sample, in its own format.
      expect(abacus.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models/adder-1' });
      const answers = abacus.requests.filter((request) => request.path === '/v1/answer');
      expect(answers).toHaveLength(4);
      for (const request of answers) {
        expect(request.headers['x-abacus-key']).toBe('k-abacus');
        expect(request.headers['x-abacus-ledger']).toBe('arith');
        expect(request.headers.authorization).toBeUndefined();
        expect(request.body).toMatchObject({ model: 'adder-1', max_tokens: 500, seed: 7 });
      }
      expect(answers.map((request) => request.body.question).sort()).toContain(
        'What is 7 + 8? Answer with the number.',
      );
    } finally {
      store.close();
      await abacus.close();
    }
  });

  it('gets its spec form, settings checks, generation settings and table rows from its descriptor', async () => {
    const spec = await bindModel({
      spec: 'abacus:adder-1@http://127.0.0.1:9',
      config: configSchemaFor(providers).parse({}),
      providers,
      environment: { ABACUS_KEY: 'k' },
    });
    // The ledger header (main, by default) is part of the endpoint's identity, as fixed headers are.
    expect(spec.endpoints[0]!.model.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:9#headers=/);

    const issues = (model: Record<string, unknown>, schema = configSchemaFor(providers)) => {
      const parsed = schema.safeParse({ models: { m: model } });
      return parsed.success
        ? []
        : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    };
    const endpoint = { baseURL: 'http://127.0.0.1:9' };
    expect(
      issues({
        provider: 'abacus',
        model: 'a',
        endpoints: [{ ...endpoint, ledger: 'Main', apiKeyEnv: 'K' }],
      }),
    ).toEqual(['models.m.endpoints.0.ledger: must be a ledger name in lower case']);
    expect(issues({ provider: 'abacus', model: 'a', endpoints: [{ ...endpoint, ledger: 'arith' }] })).toEqual(
      ['models.m.endpoints.0.apiKeyEnv: abacus needs a key for the ledger "arith"'],
    );
    expect(
      issues({ provider: 'openai-compatible', model: 'a', endpoints: [{ ...endpoint, ledger: 'x' }] }),
    ).toEqual(['models.m.endpoints.0.ledger: applies to abacus only']);
    // medbench's own schema knows no abacus.
    expect(issues({ provider: 'abacus', model: 'a', endpoints: [endpoint] }, configSchema)).toHaveLength(1);

    const config = configSchemaFor(providers).parse({
      models: { m: { provider: 'abacus', model: 'a', endpoints: [endpoint], topP: 0.9 } },
    });
    await expect(bindModel({ spec: 'm', config, providers, environment: {} })).rejects.toThrow(
      /"topP" is not accepted by abacus/,
    );
    await expect(
      bindModel({ spec: 'abacus:a@http://127.0.0.1:9', config, providers, environment: {} }),
    ).rejects.toThrow('The environment variable ABACUS_KEY is not set.');

    expect(providerRows(providers).at(-1)).toEqual([
      'abacus',
      'no',
      'none',
      'yes',
      'none',
      'key (ABACUS_KEY)',
      'abacus:<model>@<base URL> (ABACUS_KEY)',
    ]);
    expect(providersMarkdownTable(providers)).toContain('| [Abacus](abacus.md) (a toy answering service) |');
  });
});
