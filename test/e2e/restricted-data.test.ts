import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, temporaryHome } from './cli.js';

// A server on one of this machine's non-loopback addresses stands in for a remote endpoint: to
// medbench it is as remote as api.openai.com, and it records every connection it accepts.
const lan = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

const scratch = mkdtempSync(join(tmpdir(), 'medbench-restricted-'));
const clueData = join(scratch, 'clue');
const dataset = join(scratch, 'niah.jsonl');
let remote: LlmTestServer | undefined;
let local: LlmTestServer;

const answer = { kind: 'answer', text: 'ENTAILMENT' } as const;
beforeAll(async () => {
  mkdirSync(clueData, { recursive: true });
  writeClueFixtures(clueData);
  await buildSampleNiah(dataset);
  local = await startLlmTestServer({ fallback: () => answer });
  if (lan) remote = await startLlmTestServer({ fallback: () => answer, host: lan });
});
afterAll(async () => {
  await local.close();
  await remote?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function config(name: string, endpoint: Record<string, unknown>): string {
  const path = join(scratch, `${name}.config.json`);
  writeFileSync(
    path,
    JSON.stringify({ models: { m: { provider: 'openai-compatible', model: 'm', endpoints: [endpoint] } } }),
  );
  return path;
}

const clue = (home: string, model: string, ...extra: string[]) =>
  runCli(['--home', home, 'run', 'clue', '--data', clueData, '--model', model, ...extra]);

/** Nothing written under home: no store, no claims file, nothing. */
function untouched(home: string): boolean {
  return !existsSync(home) || readdirSync(home).length === 0;
}

describe('restricted (credentialed) data goes only to approved endpoints', () => {
  it.skipIf(!lan)('CLUE MedNLI to a remote endpoint: refused before one byte is sent or stored', async () => {
    const home = temporaryHome();
    const result = await clue(home, `openai-compatible:m@${remote!.url}/v1`, '--tasks', 'mednli,medisumqa');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DATA_RESTRICTED');
    expect(result.stderr).toContain('CLUE MedNLI (MIMIC-III), MeDiSumQA (MIMIC-IV) is restricted');
    expect(result.stderr).toContain(`${remote!.url}/v1 (a remote endpoint not approved in the config)`);
    expect(remote!.connections).toBe(0);
    expect(untouched(home)).toBe(true);
  });

  it.skipIf(!lan)(
    'a public CLUE task (MeQSum) goes to the same endpoint; with --restricted it does not',
    async () => {
      const home = temporaryHome();
      const before = remote!.requests.length;
      const marked = await clue(
        home,
        `openai-compatible:m@${remote!.url}/v1`,
        '--tasks',
        'meqsum',
        '--restricted',
      );
      expect(marked.code).toBe(1);
      expect(marked.stderr).toContain('CLUE meqsum is restricted (marked restricted (--restricted))');
      expect(remote!.requests.length).toBe(before);
      const open = await clue(home, `openai-compatible:m@${remote!.url}/v1`, '--tasks', 'meqsum');
      expect(open.stderr).not.toContain('DATA_RESTRICTED');
      expect(open.code).toBe(0);
      expect(remote!.requests.length).toBeGreaterThan(before);
    },
  );

  it.skipIf(!lan)('an endpoint the config approves receives MIMIC-derived tasks', async () => {
    const home = temporaryHome();
    const path = config('approved', { baseURL: `${remote!.url}/v1`, restrictedDataApproved: true });
    const before = remote!.requests.length;
    const result = await clue(home, 'm', '--config', path, '--tasks', 'mednli');
    expect(result.stderr).not.toContain('DATA_RESTRICTED');
    expect(result.code).toBe(0);
    expect(remote!.requests.length - before).toBe(3);
  });

  it('a server on this machine receives them by default, unless the config refuses it', async () => {
    const home = temporaryHome();
    const byDefault = await clue(home, `openai-compatible:m@${local.url}/v1`, '--tasks', 'mednli');
    expect(byDefault.code).toBe(0);
    expect(local.requests.length).toBe(3);
    const refusedHome = temporaryHome();
    const path = config('refused', { baseURL: `${local.url}/v1`, restrictedDataApproved: false });
    const refused = await clue(refusedHome, 'm', '--config', path, '--tasks', 'problem-summary');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${local.url}/v1 (refused in the config)`);
    expect(local.requests.length).toBe(3);
    expect(untouched(refusedHome)).toBe(true);
  });

  it.skipIf(!lan)(
    'a dataset marked restricted (--restricted, or in its header) goes to no remote endpoint',
    async () => {
      const home = temporaryHome();
      const model = `openai-compatible:m@${remote!.url}/v1`;
      const run = (file: string, ...extra: string[]) =>
        runCli([
          '--home',
          home,
          'run',
          '--dataset',
          file,
          '--model',
          model,
          '--context-window',
          '128000',
          ...extra,
        ]);
      const connections = remote!.connections;
      const flagged = await run(dataset, '--restricted');
      expect(flagged.code).toBe(1);
      expect(flagged.stderr).toContain(`${dataset} is restricted (marked restricted (--restricted))`);
      const [header, ...lines] = readFileSync(dataset, 'utf8').trimEnd().split('\n');
      const marked = join(scratch, 'marked.jsonl');
      writeFileSync(
        marked,
        `${[JSON.stringify({ ...JSON.parse(header!), restricted: true }), ...lines].join('\n')}\n`,
      );
      const headed = await run(marked);
      expect(headed.code).toBe(1);
      expect(headed.stderr).toContain(`${marked} is restricted (its header marks it restricted)`);
      expect(remote!.connections).toBe(connections);
      expect(untouched(home)).toBe(true);
      // The same dataset unmarked is not restricted.
      expect((await run(dataset)).code).toBe(0);
    },
  );

  it.skipIf(!lan)(
    'MedEureka with --restricted: no remote embedding server; in-process retrievers run',
    async () => {
      const home = temporaryHome();
      const data = join(ROOT, 'samples', 'medeureka');
      const medeureka = (model: string) =>
        runCli(['--home', home, 'run', 'medeureka', '--data', data, '--model', model, '--restricted']);
      const connections = remote!.connections;
      const refused = await medeureka(`openai-compatible:e@${remote!.url}/v1`);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`${data} is restricted (marked restricted (--restricted))`);
      expect(refused.stderr).toContain(`${remote!.url}/v1 (a remote endpoint not approved in the config)`);
      expect(remote!.connections).toBe(connections);
      expect(untouched(home)).toBe(true);
      expect((await medeureka('bm25')).code).toBe(0);
      // Mining training triples embeds the same texts: the same rule.
      const out = join(scratch, 'triples.jsonl');
      const mined = await runCli([
        '--home',
        home,
        'export',
        'medeureka-triples',
        '--data',
        data,
        '--out',
        out,
        '--restricted',
        '--model',
        `openai-compatible:e@${remote!.url}/v1`,
      ]);
      expect(mined.code).toBe(1);
      expect(mined.stderr).toContain('DATA_RESTRICTED');
      expect(remote!.connections).toBe(connections);
    },
  );
});
