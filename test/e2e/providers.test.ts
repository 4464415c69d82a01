import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LlmTestServer } from '../support/llm-test-server.js';
import { verifySigV4 } from '../support/sigv4.js';
import { runCli, temporaryHome } from './cli.js';
import { niahWithTestServer } from './niah-server.js';
import { filesContain, resultIds, storeSnapshot } from './store-snapshot.js';

const {
  scratch,
  dataset,
  server: testServer,
} = niahWithTestServer(['openai-compatible', 'ollama', 'azure-openai', 'bedrock', 'gemini', 'anthropic']);
let server: LlmTestServer;

/** Each describe's tests talk to the server of its provider. */
function serving(provider: Parameters<typeof testServer>[0]) {
  beforeEach(() => {
    server = testServer(provider);
  });
}

const run = (home: string, ...args: string[]) =>
  runCli(['--home', home, 'run', '--dataset', dataset, '--tokenizer', 'o200k_base', ...args]);

describe('ollama:<model>@<url>', () => {
  serving('ollama');
  it('checks the model once on /api/show, then sends every sample to /api/chat with num_ctx', async () => {
    const home = temporaryHome();
    const result = await run(
      home,
      '--model',
      `ollama:llama3.1:8b@${server.url}`,
      '--context-window',
      '32768',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests[0]).toMatchObject({ path: '/api/show', body: { model: 'llama3.1:8b' } });
    const chats = server.requests.slice(1);
    expect(chats).toHaveLength(20);
    expect(chats.every((request) => request.path === '/api/chat')).toBe(true);
    expect(chats.every((request) => (request.body.options as { num_ctx: number }).num_ctx === 32768)).toBe(
      true,
    );
    expect(resultIds(home)).toHaveLength(20);
    // Finished: re-running sends nothing, not even the check.
    expect(
      (await run(home, '--model', `ollama:llama3.1:8b@${server.url}`, '--context-window', '32768')).code,
    ).toBe(0);
    expect(server.requests).toHaveLength(21);
  });

  it('needs a window, and refuses one longer than the model supports, before any sample is sent', async () => {
    const home = temporaryHome();
    const spec = `ollama:llama3.1:8b@${server.url}`;
    const noWindow = await run(home, '--model', spec);
    expect(noWindow.code).not.toBe(0);
    expect(noWindow.stderr).toMatch(/needs a context window.*num_ctx/);
    expect(server.requests).toHaveLength(0);
    const tooLong = await run(home, '--model', spec, '--context-window', '200000');
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toContain('a context window of 200000 tokens is longer than "llama3.1:8b"');
    expect(tooLong.stderr).toContain('--context-window 131072');
    expect(server.requests.map((request) => request.path)).toEqual(['/api/show']);
    expect(resultIds(home, { missingStore: [] })).toEqual([]);
  });

  it('a model not pulled is one error naming the fix, after one request', async () => {
    const home = temporaryHome();
    const result = await run(
      home,
      '--model',
      `ollama:llama3.1:70b@${server.url}`,
      '--context-window',
      '8192',
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ollama pull llama3.1:70b');
    expect(server.requests).toHaveLength(1);
    expect(resultIds(home, { missingStore: [] })).toEqual([]);
  });
});

describe('azure-openai and custom headers from the config', () => {
  serving('azure-openai');
  function config(endpoint: Record<string, unknown>): string {
    const path = join(scratch, `azure-${Math.random().toString(36).slice(2)}.json`);
    const entry = { provider: 'azure-openai', model: 'gpt-4o', contextWindow: 128000, endpoints: [endpoint] };
    writeFileSync(path, JSON.stringify({ models: { azure: entry } }));
    return path;
  }
  const environment = { AZURE_KEY_FOR_TEST: 'azure-key-0c9f2b', GATEWAY_SECRET_FOR_TEST: 'gw-secret-77aa' };

  it('sends to the deployment with the key and headers, and stores neither secret anywhere', async () => {
    const home = temporaryHome();
    const path = config({
      baseURL: server.url,
      deployment: 'gpt-4o-eu',
      apiKeyEnv: 'AZURE_KEY_FOR_TEST',
      headers: { 'X-Institution': 'uk-essen', 'X-Gateway-Secret': { env: 'GATEWAY_SECRET_FOR_TEST' } },
    });
    const result = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'azure', '--config', path],
      environment,
    );
    expect(result.code, result.stderr).toBe(0);
    // One probe of one output token before the run, then the 20 samples.
    expect(server.requests).toHaveLength(21);
    expect(server.requests[0]!.body).toMatchObject({
      messages: [{ role: 'user', content: 'ping' }],
      max_tokens: 1,
    });
    for (const request of server.requests) {
      expect(request.path).toBe('/openai/deployments/gpt-4o-eu/chat/completions?api-version=2024-10-21');
      expect(request.headers['api-key']).toBe('azure-key-0c9f2b');
      expect(request.headers['x-gateway-secret']).toBe('gw-secret-77aa');
      expect(request.headers['x-institution']).toBe('uk-essen');
      expect(request.body.model).toBeUndefined();
    }
    const report = await runCli([
      '--home',
      home,
      'report',
      '--suite',
      'medodyssey',
      '--html',
      join(home, 'report.html'),
    ]);
    expect(report.code, report.stderr).toBe(0);
    expect(filesContain(home, 'azure-key-0c9f2b')).toEqual([]);
    expect(filesContain(home, 'gw-secret-77aa')).toEqual([]);
    expect(result.stderr + result.stdout).not.toMatch(/azure-key-0c9f2b|gw-secret-77aa/);
  });

  it('names what is missing: the deployment, the key variable, the header variable', async () => {
    const home = temporaryHome();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { baseURL: server.url, apiKeyEnv: 'AZURE_KEY_FOR_TEST' },
        /endpoints\.0\.deployment: azure-openai needs the deployment name/,
      ],
      [{ baseURL: server.url, deployment: 'd', apiKeyEnv: 'AZURE_KEY_UNSET' }, /AZURE_KEY_UNSET is not set/],
      [{ baseURL: server.url, deployment: 'd' }, /has no key.*\n.*apiKeyEnv.*entra-id/],
      [
        {
          baseURL: server.url,
          deployment: 'd',
          apiKeyEnv: 'AZURE_KEY_FOR_TEST',
          headers: { 'X-Secret': { env: 'HEADER_UNSET' } },
        },
        /HEADER_UNSET \(for the header X-Secret\) is not set/,
      ],
    ];
    for (const [endpoint, message] of cases) {
      const result = await runCli(
        ['--home', home, 'run', '--dataset', dataset, '--model', 'azure', '--config', config(endpoint)],
        environment,
      );
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
    }
    expect(server.requests).toHaveLength(0);
    expect(storeSnapshot(home)).toBe('absent');
  });
});

describe('bedrock from the config, credentials from the AWS environment', () => {
  serving('bedrock');
  it('signs every request for the region and keeps the secret key out of every file', async () => {
    const home = temporaryHome();
    const path = join(scratch, 'bedrock.json');
    const entry = {
      provider: 'bedrock',
      model: 'anthropic.claude-3-haiku-20240307-v1:0',
      contextWindow: 200000,
      endpoints: [{ baseURL: server.url, region: 'eu-central-1', concurrency: 4 }],
    };
    writeFileSync(path, JSON.stringify({ models: { haiku: entry } }));
    const secret = 'e2e-bedrock-secret-9d1f';
    const result = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'haiku', '--config', path],
      {
        AWS_ACCESS_KEY_ID: 'AKIDE2E',
        AWS_SECRET_ACCESS_KEY: secret,
        AWS_REGION: 'us-west-2',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(20);
    for (const request of server.requests) {
      expect(request.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
      // The endpoint's region wins over AWS_REGION.
      expect(verifySigV4(request, secret).scope).toMatch(/\/eu-central-1\/bedrock\/aws4_request$/);
    }
    expect(resultIds(home)).toHaveLength(20);
    expect(filesContain(home, secret)).toEqual([]);
    expect(result.stderr + result.stdout).not.toContain(secret);
  });
});

describe('gemini from the config', () => {
  serving('gemini');
  it('sends every sample to generateContent with the key in x-goog-api-key, and stores no key', async () => {
    const home = temporaryHome();
    const path = join(scratch, 'gemini.json');
    const entry = {
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      contextWindow: 1048576,
      endpoints: [{ baseURL: server.url, apiKeyEnv: 'GEMINI_KEY_FOR_TEST' }],
    };
    writeFileSync(path, JSON.stringify({ models: { flash: entry } }));
    const secret = 'AIza-e2e-gemini-3c5d';
    const result = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'flash', '--config', path],
      {
        GEMINI_KEY_FOR_TEST: secret,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(20);
    for (const request of server.requests) {
      expect(request.path).toBe('/v1/models/gemini-2.5-flash:generateContent');
      expect(request.headers['x-goog-api-key']).toBe(secret);
    }
    expect(filesContain(home, secret)).toEqual([]);
    const missing = await runCli([
      '--home',
      temporaryHome(),
      'run',
      '--dataset',
      dataset,
      '--model',
      'gemini:gemini-2.5-flash',
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('GEMINI_API_KEY is not set');
  });
});

describe('an OpenAI-compatible server asked first (GET /v1/models)', () => {
  serving('openai-compatible');
  it("refuses a window above vLLM's max_model_len, and tells of a name the server does not list", async () => {
    const home = temporaryHome();
    server.servedModels = [{ id: 'served-model', max_model_len: 4096 }];
    const tooLong = await run(
      home,
      '--model',
      `openai-compatible:served-model@${server.url}/v1`,
      '--context-window',
      '128000',
    );
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr).toContain('a context window of 128000 tokens is longer than "served-model"');
    expect(server.probes.map((probe) => probe.path)).toEqual(['/v1/models']);
    expect(server.requests).toHaveLength(0);
    const other = await run(
      home,
      '--model',
      `openai-compatible:another-name@${server.url}/v1`,
      '--context-window',
      '4096',
    );
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toContain('"another-name" is not among them');
    expect(server.requests).toHaveLength(20);
  });
});

describe('how too_long is judged', () => {
  serving('anthropic');
  it("--count-tokens endpoint: the provider's own count decides, one count per sample", async () => {
    const home = temporaryHome();
    // The server counts a token per 4 characters of the prompt: the window falls mid-way.
    const prompts = readFileSync(dataset, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { id: string; prompt: string });
    const counts = prompts
      .map((sample) => Math.ceil(sample.prompt.length / 4))
      .sort((left, right) => left - right);
    // The longest count below the longest prompt's, or one below the shortest when all are equal.
    const window = counts.filter((count) => count < counts.at(-1)!).at(-1) ?? counts[0]! - 1;
    const expectedTooLong = prompts
      .filter((sample) => Math.ceil(sample.prompt.length / 4) > window)
      .map((sample) => sample.id);
    expect(expectedTooLong.length).toBeGreaterThan(0);
    const path = join(scratch, 'anthropic.json');
    writeFileSync(
      path,
      JSON.stringify({
        models: {
          haiku: {
            provider: 'anthropic',
            model: 'claude-3-5-haiku-20241022',
            endpoints: [{ baseURL: server.url, apiKeyEnv: 'ANTHROPIC_KEY_FOR_TEST' }],
            contextWindow: window,
            countTokens: 'endpoint',
          },
        },
      }),
    );
    server.counts.length = 0;
    const result = await runCli(
      ['--home', home, 'run', '--dataset', dataset, '--model', 'haiku', '--config', path],
      {
        ANTHROPIC_KEY_FOR_TEST: 'sk-ant-e2e',
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.counts).toHaveLength(20);
    expect(server.counts.every((request) => request.path === '/v1/messages/count_tokens')).toBe(true);
    const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
    const tooLong = database
      .prepare("SELECT sample_id, error FROM results WHERE status = 'too_long' ORDER BY sample_id")
      .all() as Array<{
      sample_id: string;
      error: string;
    }>;
    database.close();
    expect(tooLong.map((row) => row.sample_id)).toEqual([...expectedTooLong].sort());
    expect(tooLong[0]!.error).toContain('endpoint-counted tokens');
    expect(server.requests).toHaveLength(20 - expectedTooLong.length);
  });

  it('a model without a tokenizer is judged with an o200k estimate, and told so; a provider without a count route is refused', async () => {
    const server = testServer('openai-compatible');
    const ollama = testServer('ollama');
    const home = temporaryHome();
    const estimated = await runCli([
      ...['--home', home, 'run', '--dataset', dataset],
      ...['--model', `openai-compatible:house-model@${server.url}/v1`, '--context-window', '128000'],
    ]);
    expect(estimated.code, estimated.stderr).toBe(0);
    expect(estimated.stderr).toContain(
      'no tokenizer is known for house-model; too_long is judged with o200k_base, an estimate',
    );
    const refused = await run(
      home,
      '--model',
      `ollama:llama3.1:8b@${ollama.url}`,
      '--context-window',
      '8192',
      '--count-tokens',
      'endpoint',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--count-tokens endpoint: ollama has no count-tokens route');
  });
});

describe('azure-openai signed in with Microsoft Entra ID', () => {
  serving('azure-openai');
  it("takes a token from the default credential chain (here a managed identity's endpoint) and sends it as the bearer", async () => {
    const asked: Array<{ url: string; secret: string | undefined }> = [];
    const identity = createServer((request, response) => {
      asked.push({
        url: request.url ?? '',
        secret: request.headers['x-identity-header'] as string | undefined,
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          access_token: 'entra-token-from-msi',
          expires_on: String(Math.floor(Date.now() / 1000) + 3600),
          resource: 'https://cognitiveservices.azure.com',
          token_type: 'Bearer',
        }),
      );
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    try {
      const home = temporaryHome();
      const path = join(scratch, 'entra.json');
      const entry = {
        provider: 'azure-openai',
        model: 'gpt-4o',
        contextWindow: 128000,
        endpoints: [{ baseURL: server.url, deployment: 'gpt-4o-entra', auth: 'entra-id' }],
      };
      writeFileSync(path, JSON.stringify({ models: { entra: entry } }));
      const result = await runCli(
        ['--home', home, 'run', '--dataset', dataset, '--model', 'entra', '--config', path],
        {
          IDENTITY_ENDPOINT: `http://127.0.0.1:${(identity.address() as AddressInfo).port}/msi/token`,
          IDENTITY_HEADER: 'msi-header-secret',
          AZURE_CLIENT_ID: '',
          AZURE_TENANT_ID: '',
          AZURE_CLIENT_SECRET: '',
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(asked[0]).toMatchObject({ secret: 'msi-header-secret' });
      expect(asked[0]!.url).toContain('resource=https%3A%2F%2Fcognitiveservices.azure.com');
      expect(server.requests).toHaveLength(21);
      expect(
        server.requests.every((request) => request.headers.authorization === 'Bearer entra-token-from-msi'),
      ).toBe(true);
      expect(server.requests.every((request) => request.headers['api-key'] === undefined)).toBe(true);
      expect(filesContain(home, 'entra-token-from-msi')).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => identity.close(() => resolve()));
    }
  });
});
