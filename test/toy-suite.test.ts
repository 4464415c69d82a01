import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindModel } from '../src/compose/bind-model.js';
import { configSchema } from '../src/compose/config.js';
import { SUITES } from '../src/compose/suites.js';
import type { RunRecord } from '../src/core/run-record.js';
import { readDataset, writeDataset } from '../src/runner/dataset-file.js';
import { DEFAULT_RETRY_POLICY } from '../src/runner/retry.js';
import { runSamples } from '../src/runner/run-samples.js';
import { Store } from '../src/store/store.js';
import { writeStaticSite } from '../src/view/static-site.js';
import { ViewData } from '../src/view/view-data.js';
import { type LlmTestServer, startLlmTestServer } from './support/llm-test-server.js';
import { staticPayloadText } from './support/static-payload.js';
import { testRun } from './support/test-run.js';
import { arithSuite, buildArithSamples } from './support/toy-suite/suite.js';

/** docs/adding-a-suite.md: a fourth suite goes through the same run, report and viewer code as the three. */

let scratch: string;
let server: LlmTestServer;
const suites = [...SUITES, arithSuite];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'medbench-toy-'));
  // A model that adds correctly in English and is off by one in German.
  server = await startLlmTestServer((request) => {
    const messages = request.body.messages as Array<{ content: string }>;
    const [left, right] = (messages.at(-1)!.content.match(/\d+/g) ?? []).map(Number);
    const german = messages.at(-1)!.content.startsWith('Was');
    return { kind: 'answer', text: `The answer is ${left! + right! + (german ? 1 : 0)}.` };
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
    samples: (
      await arithSuite.build!({
        pairs: [
          [2, 3],
          [4, 4],
          [7, 8],
        ],
      })
    ).samples,
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
