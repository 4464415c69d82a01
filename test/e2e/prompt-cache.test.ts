import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, type LlmTestServers, startLlmTestServers } from '../support/llm-test-server.js';
import { messagesText } from '../support/providers/wire.js';
import { buildSampleNiah, runCli, temporaryHome } from './cli.js';

/**
 * `--no-prompt-cache` against Anthropic's test server: the requests lose their cache_control
 * blocks and nothing else. The sample NIAH prompts (about 2,600 characters) share less than the
 * 4,096 characters a breakpoint needs, so each gets a shared case history of 6,000 characters first.
 */
const scratch = temporaryHome();
const dataset = join(scratch, 'niah-long.jsonl');
const config = join(scratch, 'medbench.config.json');
let servers: LlmTestServers<'anthropic'>;
let server: LlmTestServer;
const HISTORY = 'Case history: outpatient clinic note, unchanged since admission.\n'.repeat(92);

/** The prompt a request carried, its blocks joined. */
const promptOf = (body: Record<string, unknown>) => messagesText(body.system, body.messages);

beforeAll(async () => {
  const built = join(scratch, 'niah.jsonl');
  await buildSampleNiah(built);
  const [header, ...samples] = readFileSync(built, 'utf8').trim().split('\n');
  const longer = samples.map((line) => {
    const sample = JSON.parse(line) as { prompt: string; promptChars: number; promptTokens: object };
    const prompt = HISTORY + sample.prompt;
    return JSON.stringify({ ...sample, prompt, promptChars: prompt.length, promptTokens: {} });
  });
  writeFileSync(dataset, `${[header, ...longer].join('\n')}\n`);
  servers = await startLlmTestServers(['anthropic'], {
    // The answer is a function of the exact text received: a changed text would change a score.
    fallback: (request) => {
      const prompt = promptOf(request.body);
      return {
        kind: 'answer',
        text: `{"answer": "${prompt.length % 3 === 0 ? 'x' : prompt.slice(-12, -2)}"}`,
      };
    },
  });
  server = servers.anthropic;
  const model = {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    contextWindow: 200000,
    endpoints: [{ baseURL: server.url, apiKeyEnv: 'ANTHROPIC_KEY_FOR_TEST' }],
  };
  writeFileSync(config, JSON.stringify({ models: { claude: model } }));
});
afterAll(() => servers.close());

/** A run of the dataset on the Anthropic test server; the requests it sent. */
async function run(home: string, ...extra: string[]) {
  const before = server.requests.length;
  const result = await runCli(
    ['--home', home, 'run', '--dataset', dataset, '--model', 'claude', '--config', config, ...extra],
    { ANTHROPIC_KEY_FOR_TEST: 'sk-ant-e2e' },
  );
  expect(result.code, result.stderr).toBe(0);
  return server.requests.slice(before).filter((request) => request.path === '/v1/messages');
}

/** What a run stored: its id, each sample's status, answer and scores, and the response cache keys. */
function stored(home: string) {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return {
      runs: database.prepare('SELECT id FROM runs').all(),
      results: database
        .prepare(
          'SELECT run_id, sample_id, status, raw_output, parsed_json, scores_json, prompt_hash FROM results ORDER BY sample_id',
        )
        .all(),
      responseKeys: database.prepare('SELECT cache_key FROM responses ORDER BY cache_key').all(),
    };
  } finally {
    database.close();
  }
}

describe('--no-prompt-cache', () => {
  it('takes out the cache breakpoints only: the same texts, answers, scores, run id and response cache keys', async () => {
    const cachedHome = temporaryHome();
    const hinted = await run(cachedHome);
    expect(hinted).toHaveLength(20);
    // Every prompt shares the history and the instructions with its neighbours: each is marked.
    for (const request of hinted) expect(JSON.stringify(request.body)).toContain('"cache_control"');

    const plainHome = temporaryHome();
    const plain = await run(plainHome, '--no-prompt-cache');
    expect(plain).toHaveLength(20);
    for (const request of plain) {
      expect(JSON.stringify(request.body)).not.toContain('cache_control');
      expect(typeof (request.body.messages as Array<{ content: unknown }>)[0]!.content).toBe('string');
    }
    const texts = (requests: typeof plain) => requests.map((request) => promptOf(request.body)).sort();
    expect(texts(hinted)).toEqual(texts(plain));

    const withCache = stored(cachedHome);
    expect(withCache.results).toHaveLength(20);
    expect(
      new Set(withCache.results.map((row) => (row as { raw_output: string }).raw_output)).size,
    ).toBeGreaterThan(1);
    expect(stored(plainHome)).toEqual(withCache);
    // The same run: finished already, --no-prompt-cache or not.
    expect(await run(cachedHome, '--no-prompt-cache')).toHaveLength(0);
  });
});
