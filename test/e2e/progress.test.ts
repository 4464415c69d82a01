import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, datasetRunArgs, runCli, temporaryHome } from './cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'medbench-progress-'));
const dataset = join(scratch, 'niah.jsonl');
let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: 'an answer' }) });
  await buildSampleNiah(dataset);
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('progress and cost lines on stderr (built CLI)', () => {
  it('a model without prices: cost — in the progress line and the summary, as in the report', async () => {
    const home = temporaryHome();
    const result = await runCli(datasetRunArgs(home, dataset, server.url));
    expect(result.code).toBe(0);
    // Not a terminal: one progress line at the end, then the summary.
    expect(result.stderr).toMatch(/20\/20 · 100% · .* · cost — · /);
    expect(result.stderr).toMatch(/output tokens, cost —\.\n/);
    expect(result.stderr).not.toContain('0.0000');
    rmSync(home, { recursive: true, force: true });
  });
});
