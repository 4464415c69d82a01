import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staticPayloadText } from '../../test/support/static-payload.js';
import { testRun } from '../../test/support/test-run.js';
import { SUITES } from '../compose/suites.js';
import { NO_MODEL_CALL, Store } from '../store/store.js';
import { writeStaticSite } from './static-site.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-static-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('static site', () => {
  it('leaves endpoint URLs out of every file: run models and error texts alike', () => {
    const store = new Store(join(folder, 'medbench.sqlite'));
    store.ensureRun(
      testRun({
        id: 'r1',
        label: 'hospital-model',
        model: {
          provider: 'openai-compatible',
          modelId: 'm',
          endpoints: ['http://10.20.30.40:8000/v1', 'https://gateway.hospital.example/v1?route=a'],
          contextWindow: 128000,
        },
      }),
    );
    for (const [index, error] of [null, 'Cannot reach http://10.20.30.40:8000/v1 (ECONNREFUSED).'].entries())
      store.putResult({
        runId: 'r1',
        sampleId: `s${index}`,
        task: 'niah',
        params: { language: 'en', level: 1000, depth: 50 },
        gold: { answers: ['x'] },
        prompt: 'p',
        promptChars: 1,
        promptTokens: 1,
        status: error ? 'error' : 'ok',
        rawOutput: error ? null : 'x',
        parsed: null,
        scores: { esm: error ? 0 : 1, ssm: 0 },
        ...NO_MODEL_CALL,
        error,
      });
    const site = join(folder, 'site');
    writeStaticSite(store, site, SUITES);
    store.close();
    // Each file holds its payload gzipped in base64: read as the page does.
    const files = readdirSync(join(site, 'data')).map((name) => staticPayloadText(join(site, 'data', name)));
    const all = files.join('\n');
    expect(all).toContain('hospital-model');
    expect(all).toContain('Cannot reach <endpoint> (ECONNREFUSED).');
    expect(all).not.toContain('10.20.30.40');
    expect(all).not.toContain('gateway.hospital.example');
  });
});
