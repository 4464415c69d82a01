import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sample } from '../core/sample.js';
import type { Suite } from '../core/suite.js';
import { resultRecord } from '../runner/result-columns.js';
import { runComputed } from '../runner/run-computed.js';
import { runRecordOf } from '../runner/run-identity.js';
import { evaluateSuite } from './evaluate-suite.js';
import { type RunPlan, runSuite } from './run-suite.js';

const scratch = mkdtempSync(join(tmpdir(), 'medbench-run-suite-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const samples: Sample[] = ['a', 'b', 'c'].map((id) => ({
  id,
  suite: 'toy',
  task: 't',
  params: {},
  prompt: `prompt ${id}`,
  promptTokens: {},
  gold: { answer: id },
  promptChars: 8,
}));

/** A computed plan over three items whose `close` and `finish` say when they ran. */
function plan(events: string[]): RunPlan {
  const run = runRecordOf({
    identity: { datasetId: 'd', model: { provider: 'test' }, parameters: {}, scoringMode: 'standard' },
    suite: 'toy',
    label: 'toy',
    datasetPath: null,
    description: {},
  });
  return {
    suite: { name: 'toy', leaderboard: () => ({ suite: 'toy', variants: [], rows: [] }) } as unknown as Suite,
    run,
    samples,
    limit: undefined,
    source: 'three items',
    work: {
      kind: 'computed',
      compute: ({ store, samples: share, redactText }) =>
        runComputed({
          store,
          run,
          redactText,
          batches: [
            {
              ids: share.map((sample) => sample.id),
              compute: () =>
                share.map((sample) =>
                  resultRecord({
                    runId: run.id,
                    sample,
                    prompt: null,
                    promptTokens: null,
                    outcome: { status: 'ok', rawOutput: sample.id, parsed: sample.id, scores: { exact: 1 } },
                  }),
                ),
            },
          ],
        }),
    },
    finish: async () => {
      events.push('finish');
    },
    close: () => {
      events.push('close');
    },
  };
}

describe('runSuite', () => {
  it('runs the work, then finish, then close; a dry run stores nothing and still closes', async () => {
    const home = join(scratch, 'home');
    const events: string[] = [];
    const reports: string[] = [];
    const dry = await runSuite(
      plan(events),
      { model: 'x', home, dryRun: true },
      { onReport: (text) => reports.push(text) },
    );
    expect(dry.kind).toBe('dry-run');
    expect(reports[0]).toContain('3 of 3 items left to compute');
    expect(events).toEqual(['close']);
    const outcome = await runSuite(plan(events), { model: 'x', home, report: false });
    expect(outcome).toMatchObject({ kind: 'computed', summary: { done: 3, alreadyDone: 0 } });
    expect(events).toEqual(['close', 'finish', 'close']);
  });

  it('releases what the plan opened when the store cannot be opened', async () => {
    const home = join(scratch, 'store-is-a-folder');
    mkdirSync(join(home, 'medbench.sqlite'), { recursive: true });
    const events: string[] = [];
    await expect(runSuite(plan(events), { model: 'x', home })).rejects.toThrow(
      /Cannot open the medbench store/,
    );
    expect(events).toEqual(['close']);
  });

  it("evaluateSuite runs a plugin's plan on the same path, and names the suites that have a run", async () => {
    const events: string[] = [];
    const toy = plan(events);
    const plugins = [
      { suite: toy.suite, commands: [], run: { data: 'folder', options: [], plan: async () => toy } },
    ];
    const home = join(scratch, 'evaluate-suite');
    const outcome = await evaluateSuite('toy', { model: 'x', home, report: false }, {}, plugins);
    expect(outcome).toMatchObject({ kind: 'computed', summary: { done: 3 } });
    expect(events).toEqual(['finish', 'close']);
    await expect(evaluateSuite('medodyssey', { model: 'x', home })).rejects.toThrow(
      /"medodyssey" has no run of its own; clue, medeureka have one/,
    );
  });
});
