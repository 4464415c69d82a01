import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddingTestServer, startEmbeddingTestServer } from '../support/embedding-test-server.js';
import { ROOT, runCli, temporaryHome } from './cli.js';
import { filesContain } from './store-snapshot.js';

const data = join(ROOT, 'samples', 'medeureka');
const scratch = temporaryHome();
let server: EmbeddingTestServer;
beforeAll(async () => {
  server = await startEmbeddingTestServer({ dimensions: 32 });
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

const medeureka = (home: string, ...args: string[]) =>
  runCli(
    ['--home', home, 'run', 'medeureka', '--data', data, '--tasks', 'AskAPatient_en,Study_en', ...args],
    {
      AWS_ACCESS_KEY_ID: 'AKIDE2E',
      AWS_SECRET_ACCESS_KEY: 'e2e-embed-secret-77',
    },
  );

describe('MedEureka through cloud and Ollama embedding providers', () => {
  it('Bedrock Cohere: queries as search_query, documents as search_document, and a second run takes every vector from the cache', async () => {
    const home = temporaryHome();
    const config = join(scratch, 'bedrock.json');
    writeFileSync(
      config,
      JSON.stringify({
        embeddingModels: {
          cohere: {
            provider: 'bedrock',
            model: 'cohere.embed-multilingual-v3',
            region: 'eu-central-1',
            baseURL: server.url,
          },
        },
      }),
    );
    const first = await medeureka(home, '--model', 'cohere', '--config', config);
    expect(first.code, first.stderr).toBe(0);
    const cohere = server.requests.filter(
      (request) => request.path === '/model/cohere.embed-multilingual-v3/invoke',
    );
    const types = new Set(cohere.map((request) => request.body.input_type));
    expect(types).toEqual(new Set(['search_query', 'search_document']));
    expect(cohere.every((request) => (request.body.texts as string[]).length <= 96)).toBe(true);
    // A text both a query and a document is embedded once as each.
    const sent = server.requests.length;
    const again = await medeureka(home, '--model', 'cohere', '--config', config);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/embedded 0 texts, \d+ from the cache/);
    expect(server.requests.length).toBe(sent);
    expect(filesContain(home, 'e2e-embed-secret-77')).toEqual([]);
  });

  it('Ollama by spec gives the same scores as the same vectors through OpenAI-compatible', async () => {
    const home = temporaryHome();
    const ollama = await medeureka(home, '--model', `ollama:bge-m3@${server.url}`, '--label', 'ollama');
    expect(ollama.code, ollama.stderr).toBe(0);
    expect(server.requests.some((request) => request.path === '/api/embed')).toBe(true);
    const compatible = await medeureka(
      home,
      '--model',
      `openai-compatible:bge-m3@${server.url}/v1`,
      '--label',
      'compatible',
    );
    expect(compatible.code, compatible.stderr).toBe(0);
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'medeureka', '--json'])).stdout,
    );
    const byLabel = Object.fromEntries(
      report.runs.map((run: { label: string; datasets: unknown }) => [run.label, run.datasets]),
    );
    expect(byLabel.ollama).toEqual(byLabel.compatible);
  });
});
