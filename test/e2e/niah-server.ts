import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, temporaryHome } from './cli.js';

/**
 * For a test file: a scratch folder with the sample release's NIAH dataset, and an LLM test server
 * answering '{"answer": "x"}' whose records and served models are cleared before each test.
 */
export function niahWithTestServer(): { scratch: string; dataset: string; server: () => LlmTestServer } {
  const scratch = temporaryHome();
  const dataset = join(scratch, 'niah.jsonl');
  let server: LlmTestServer;
  beforeAll(async () => {
    await buildSampleNiah(dataset);
    server = await startLlmTestServer(() => ({ kind: 'answer', text: '{"answer": "x"}' }));
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.probes.length = 0;
    server.counts.length = 0;
    server.servedModels = undefined;
  });
  afterAll(async () => {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  return { scratch, dataset, server: () => server };
}
