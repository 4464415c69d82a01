import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  type LlmTestServer,
  type LlmTestServers,
  type ProviderName,
  startLlmTestServers,
} from '../support/llm-test-server.js';
import { buildSampleNiah, temporaryHome } from './cli.js';

/**
 * For a test file: a scratch folder with the sample release's NIAH dataset, and an LLM test server
 * per provider (an OpenAI-compatible one unless others are named) answering '{"answer": "x"}',
 * whose records and served models are cleared before each test.
 */
export function niahWithTestServer(providers: readonly ProviderName[] = ['openai-compatible']): {
  scratch: string;
  dataset: string;
  server: (provider?: ProviderName) => LlmTestServer;
} {
  const scratch = temporaryHome();
  const dataset = join(scratch, 'niah.jsonl');
  let servers: LlmTestServers<ProviderName>;
  beforeAll(async () => {
    await buildSampleNiah(dataset);
    servers = await startLlmTestServers(providers, {
      fallback: () => ({ kind: 'answer', text: '{"answer": "x"}' }),
    });
  });
  beforeEach(() => {
    for (const provider of providers) {
      const server = servers[provider];
      server.requests.length = 0;
      server.probes.length = 0;
      server.counts.length = 0;
      server.servedModels = undefined;
    }
  });
  afterAll(async () => {
    await servers.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  return {
    scratch,
    dataset,
    server: (provider = providers[0]!) => {
      if (!providers.includes(provider))
        throw new Error(`no ${provider} server: name it to niahWithTestServer`);
      return servers[provider];
    },
  };
}
