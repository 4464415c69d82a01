import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { startEmbeddingTestServer } from '../support/embedding-test-server.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { verifySigV4 } from '../support/sigv4.js';
import { runCli, temporaryHome } from './cli.js';
import { niahWithTestServer } from './niah-server.js';
import { resultIds, storeSnapshot } from './store-snapshot.js';

const {
  scratch,
  dataset,
  server: testServer,
} = niahWithTestServer(['openai-compatible', 'bedrock', 'gemini', 'azure-openai', 'ollama']);
let server: LlmTestServer;

/** Each describe's tests talk to the server of its provider. */
function serving(provider: Parameters<typeof testServer>[0]) {
  beforeEach(() => {
    server = testServer(provider);
  });
}

/** A config of one model named "m", written to a fresh file. */
function config(entry: Record<string, unknown>): string {
  const path = join(scratch, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ models: { m: entry } }));
  return path;
}

const runModel = (home: string, path: string, environment: NodeJS.ProcessEnv = {}, ...args: string[]) =>
  runCli(
    ['--home', home, 'run', '--dataset', dataset, '--model', 'm', '--config', path, ...args],
    environment,
  );

const AWS = { AWS_ACCESS_KEY_ID: 'AKIDCHECKS', AWS_SECRET_ACCESS_KEY: 'checks-secret-4c1e' };

/** What a warning of Node or a library looks like on stderr. */
const NODE_WARNING = /\(node:\d+\) \w*Warning|NodeDeprecationWarning|MaxListenersExceeded/;

describe('Amazon Bedrock', () => {
  serving('bedrock');
  it('an unknown model id (400 ValidationException) is one error naming "model" before any sample is sent', async () => {
    const home = temporaryHome();
    server.servedModels = [{ id: 'anthropic.claude-3-haiku-20240307-v1:0' }];
    const path = config({
      provider: 'bedrock',
      model: 'anthropic.claude-3-haiku-typo',
      contextWindow: 200000,
      endpoints: [{ baseURL: server.url, region: 'eu-central-1' }],
    });
    const result = await runModel(home, path, AWS);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error [MODEL_NOT_FOUND]');
    expect(result.stderr).toContain('The provided model identifier is invalid.');
    expect(result.stderr).toMatch(/hint: Check "model" \("anthropic\.claude-3-haiku-typo"/);
    expect(server.counts).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    expect(storeSnapshot(home)).toBe('absent');
  });

  it("sends the endpoint's headers and query, signed, and prints no warning of the AWS SDK", async () => {
    const home = temporaryHome();
    const path = config({
      provider: 'bedrock',
      model: 'anthropic.claude-3-haiku-20240307-v1:0',
      contextWindow: 200000,
      endpoints: [
        {
          baseURL: server.url,
          region: 'eu-central-1',
          headers: { 'X-Institution': 'uk-essen', 'X-Gateway-Secret': { env: 'GATEWAY_SECRET_FOR_TEST' } },
          query: { tenant: 'radiology' },
        },
      ],
    });
    const result = await runModel(home, path, { ...AWS, GATEWAY_SECRET_FOR_TEST: 'gw-secret-51' });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(20);
    for (const request of [...server.counts, ...server.requests]) {
      expect(request.path).toMatch(/\?tenant=radiology$/);
      expect([request.headers['x-institution'], request.headers['x-gateway-secret']]).toEqual([
        'uk-essen',
        'gw-secret-51',
      ]);
      expect(verifySigV4(request, AWS.AWS_SECRET_ACCESS_KEY).accessKeyId).toBe('AKIDCHECKS');
    }
    expect(result.stderr).not.toMatch(NODE_WARNING);
    expect(resultIds(home)).toHaveLength(20);
  });
});

describe('Gemini embeddings', () => {
  // The listeners the SDK left on the run's signal are counted in gemini-chat-model.test.ts; Node
  // 22 and later no longer warn for AbortSignal, so this guards stderr, not the count.
  it('a MedEureka run of 16 batchEmbedContents calls prints no warning', async () => {
    // 1,500 documents: 15 calls of 100 texts, and one of the queries, all under one run's signal.
    const data = join(scratch, 'medeureka-large');
    mkdirSync(data);
    const corpus = Array.from(
      { length: 1500 },
      (_, index) => `Study ${index}: outcome ${index * 7} of cohort ${index}.`,
    );
    writeFileSync(join(data, 'corpus.json'), JSON.stringify({ Study_en: corpus }));
    writeFileSync(
      join(data, 'queries.jsonl'),
      [3, 700, 1400]
        .map((index) =>
          JSON.stringify({
            task: 'Study_en',
            query: `outcome of cohort ${index}?`,
            targets: [corpus[index]],
          }),
        )
        .join('\n'),
    );
    const embeddings = await startEmbeddingTestServer({ dimensions: 32 });
    try {
      const path = join(scratch, 'gemini-embedding.json');
      writeFileSync(
        path,
        JSON.stringify({
          embeddingModels: {
            e: {
              provider: 'gemini',
              model: 'gemini-embedding-001',
              baseURL: embeddings.url,
              apiKeyEnv: 'GEMINI_KEY_FOR_TEST',
              query: { tenant: 'radiology' },
            },
          },
        }),
      );
      const result = await runCli(
        ['--home', temporaryHome(), 'run', 'medeureka', '--data', data, '--model', 'e', '--config', path],
        { GEMINI_KEY_FOR_TEST: 'AIza-checks-1f' },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(embeddings.requests).toHaveLength(16);
      for (const request of embeddings.requests)
        expect(request.path).toBe('/v1/models/gemini-embedding-001:batchEmbedContents?tenant=radiology');
      expect(result.stderr).not.toMatch(NODE_WARNING);
    } finally {
      await embeddings.close();
    }
  });
});

describe('Gemini --count-tokens endpoint', () => {
  serving('gemini');
  it("counts CLUE's samples, which carry a system message, the system text included", async () => {
    const data = join(scratch, 'clue');
    mkdirSync(data);
    writeClueFixtures(data);
    const home = temporaryHome();
    const path = config({
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      contextWindow: 1048576,
      endpoints: [{ baseURL: server.url, apiKeyEnv: 'GEMINI_KEY_FOR_TEST', query: { tenant: 'radiology' } }],
    });
    const result = await runCli(
      [
        ...['--home', home, 'run', 'clue', '--data', data, '--model', 'm', '--config', path],
        ...['--count-tokens', 'endpoint', '--tokenizer', 'o200k_base', '--umls', join(data, 'MRCONSO.RRF')],
        ...['--icd10', join(data, 'icd10cm_codes_2024.txt')],
      ],
      { GEMINI_KEY_FOR_TEST: 'AIza-checks-2a' },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.counts.length).toBeGreaterThanOrEqual(server.requests.length);
    const system = server.requests.map(
      (request) => (request.body.systemInstruction as { parts: unknown[] } | undefined)?.parts,
    );
    expect(system.filter(Boolean).length).toBeGreaterThan(0);
    // What generateContent sends as the system instruction is counted as the first turn.
    const counted = server.counts.map(
      (count) => (count.body.contents as Array<{ parts: unknown[] }>)[0]!.parts,
    );
    for (const parts of system.filter(Boolean)) expect(counted).toContainEqual(parts);
    for (const count of server.counts)
      expect(count.path).toBe('/v1/models/gemini-2.5-flash:countTokens?tenant=radiology');
  });
});

describe('Gemini without @google/genai installed', () => {
  serving('gemini');
  // The CLI as a user without the optional part runs it: a resolve hook that finds no @google/genai.
  const withoutSdk = () => {
    const hook = join(scratch, 'without-google-genai.mjs');
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    if (specifier !== '@google/genai') return next(specifier, context);
    const error = new Error("Cannot find package '@google/genai' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  },
});
`,
    );
    return { NODE_OPTIONS: `--import ${pathToFileURL(hook).href}` };
  };

  it('and without its key: the part to install is reported first (installing comes before configuring), nothing sent', async () => {
    const home = temporaryHome();
    const endpoints = [{ baseURL: server.url, apiKeyEnv: 'GEMINI_KEY_FOR_TEST' }];
    const path = config({ provider: 'gemini', model: 'gemini-2.5-flash', contextWindow: 1048576, endpoints });
    const result = await runModel(home, path, withoutSdk());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error [PART_MISSING] Gemini and Vertex AI (providers "gemini" and "vertex-ai") needs @google/genai, which is not installed',
    );
    expect(result.stderr).toContain('npm install @google/genai@3.1.0');
    expect(result.stderr).not.toContain('MISSING_SECRET');
    // Its key given: the same error, before any sample; a dry run needs neither.
    const keyed = await runModel(home, path, { ...withoutSdk(), GEMINI_KEY_FOR_TEST: 'AIza-checks-2a' });
    expect(keyed.code).toBe(1);
    expect(keyed.stderr).toContain('error [PART_MISSING]');
    expect((await runModel(home, path, withoutSdk(), '--dry-run')).code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(storeSnapshot(home)).toBe('absent');
  });
});

describe('azure-openai with "auth": "entra-id" and no token to be had', () => {
  serving('azure-openai');
  it('is one ENDPOINT_AUTH error before any sample is scheduled, nothing stored', async () => {
    // A managed identity's endpoint that refuses (as App Service's does for an identity not assigned).
    let asked = 0;
    const identity = createServer((_request, response) => {
      asked++;
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ statusCode: 400, message: 'No managed identity is assigned to this resource.' }),
      );
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    try {
      const home = temporaryHome();
      const path = config({
        provider: 'azure-openai',
        model: 'gpt-4o',
        contextWindow: 128000,
        endpoints: [{ baseURL: server.url, deployment: 'gpt-4o-entra', auth: 'entra-id' }],
      });
      const result = await runModel(home, path, {
        IDENTITY_ENDPOINT: `http://127.0.0.1:${(identity.address() as AddressInfo).port}/msi/token`,
        IDENTITY_HEADER: 'msi-header-secret',
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error [ENDPOINT_AUTH] Microsoft Entra ID gave no token');
      expect(result.stderr).toMatch(/hint: .*Cognitive Services OpenAI User/);
      expect(result.stderr.match(/error \[/g)).toHaveLength(1);
      expect(result.stderr).not.toContain('msi-header-secret');
      expect(asked).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(0);
      expect(storeSnapshot(home)).toBe('absent');
    } finally {
      await new Promise<void>((resolve) => identity.close(() => resolve()));
    }
  });
});

describe('a model on three endpoints, one down at the start', () => {
  serving('openai-compatible');
  it('runs on the two that answer, names the one left out; all three down is still an error', async () => {
    const server = testServer('ollama');
    const other = await startLlmTestServer({
      provider: 'ollama',
      fallback: () => ({ kind: 'answer', text: '{"answer": "x"}' }),
    });
    const closed = await startLlmTestServer({ provider: 'ollama' });
    const down = closed.url;
    await closed.close();
    try {
      const home = temporaryHome();
      const entry = (urls: string[]) =>
        config({
          provider: 'ollama',
          model: 'llama3.1:8b',
          contextWindow: 32768,
          endpoints: urls.map((baseURL) => ({ baseURL, concurrency: 2 })),
        });
      const result = await runModel(home, entry([server.url, down, other.url]));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`warning: ${down} failed (Cannot reach ${down}/api/show`);
      const chats = [...server.requests, ...other.requests].filter((request) => request.path === '/api/chat');
      expect(chats).toHaveLength(20);
      expect(resultIds(home)).toHaveLength(20);
      const allDown = await runModel(temporaryHome(), entry([down, down, down]));
      expect(allDown.code).toBe(1);
      expect(allDown.stderr).toContain(`error [ENDPOINT_UNREACHABLE] Cannot reach ${down}/api/show`);
    } finally {
      await other.close();
    }
  });

  it('OpenAI-compatible: one unreachable and one answering HTTP 500 at the check rest; one without a models route (404) serves', async () => {
    const [failing, noRoute, closed] = [
      await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: '{"answer": "x"}' }) }),
      await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: '{"answer": "x"}' }) }),
      await startLlmTestServer(),
    ];
    await closed.close();
    failing.probeStatus = 500;
    noRoute.probeStatus = 404;
    try {
      const urls = [server.url, closed.url, failing.url, noRoute.url].map((url) => `${url}/v1`);
      const entry = (baseURLs: string[]) =>
        config({
          provider: 'openai-compatible',
          model: 'm',
          endpoints: baseURLs.map((baseURL) => ({ baseURL, concurrency: 1 })),
        });
      const home = temporaryHome();
      const result = await runModel(home, entry(urls));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`warning: ${urls[1]} failed (Cannot reach ${urls[1]}/models`);
      expect(result.stderr).toContain(`warning: ${urls[2]} failed (${urls[2]}/models answered HTTP 500`);
      expect(result.stderr).not.toContain(`warning: ${urls[3]}`);
      // Both left out before the first sample: no sample waited for their retries.
      expect(failing.requests).toHaveLength(0);
      expect(noRoute.requests.length).toBeGreaterThan(0);
      expect(server.requests.length + noRoute.requests.length).toBe(20);
      expect(resultIds(home)).toHaveLength(20);
      const allDown = await runModel(temporaryHome(), entry([urls[1]!, urls[1]!]));
      expect([allDown.code, allDown.stderr]).toEqual([
        1,
        expect.stringContaining('error [ENDPOINT_UNREACHABLE]'),
      ]);
    } finally {
      await Promise.all([failing.close(), noRoute.close()]);
    }
  });

  it.each([
    ['503', { kind: 'status', status: 503 }],
    ['a reset connection', { kind: 'reset' }],
  ] as const)(
    'one of three answering every request with %s rests; its samples go to the others',
    async (_, broken) => {
      const failing = await startLlmTestServer({ fallback: () => broken });
      const other = await startLlmTestServer({
        fallback: () => ({ kind: 'answer', text: '{"answer": "x"}' }),
      });
      try {
        const urls = [server.url, failing.url, other.url].map((url) => `${url}/v1`);
        const home = temporaryHome();
        const path = config({
          provider: 'openai-compatible',
          model: 'm',
          endpoints: urls.map((baseURL) => ({ baseURL, concurrency: 1 })),
        });
        const result = await runModel(home, path, {}, '--max-retries', '1');
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toContain(`warning: ${urls[1]} failed (`);
        // One sample's two attempts there, then it rests; that sample is answered by another.
        expect(failing.requests).toHaveLength(2);
        expect(server.requests.length + other.requests.length).toBe(20);
        expect(resultIds(home)).toHaveLength(20);
      } finally {
        await Promise.all([failing.close(), other.close()]);
      }
    },
  );
});

describe('medbench providers', () => {
  it('says how each provider signs in: Azure OpenAI with a key (or Entra ID), Bedrock and Vertex AI without one', async () => {
    const result = await runCli(['providers']);
    expect(result.code).toBe(0);
    const row = (name: string) => result.stdout.split('\n').find((line) => line.startsWith(`${name} `)) ?? '';
    expect(row('azure-openai')).toContain('key (apiKeyEnv), or Entra ID');
    expect(row('openai')).toContain('key (OPENAI_API_KEY)');
    expect(row('bedrock')).toContain('AWS credentials (no key)');
    expect(row('vertex-ai')).toContain('Google ADC (no key)');
  });
});
