import { mkdtempSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRun } from '../../test/support/test-run.js';
import { SUITES } from '../compose/suites.js';
import { NO_MODEL_CALL, Store } from '../store/store.js';
import { startViewServer } from './view-server.js';

const path = join(mkdtempSync(join(tmpdir(), 'viewer-')), 'medbench.sqlite');
/** A NIAH result of run r1 at 1,000 tokens and 50% depth. */
const niahResult = (sampleId: string, esm: number) => ({
  runId: 'r1',
  sampleId,
  task: 'niah',
  params: { language: 'en', level: 1000, depth: 50 },
  gold: { answers: ['x'] },
  prompt: 'p',
  promptChars: 1,
  promptTokens: 1,
  status: 'ok' as const,
  rawOutput: 'x',
  parsed: 'x',
  scores: { esm, ssm: esm },
  ...NO_MODEL_CALL,
});
let viewer: Awaited<ReturnType<typeof startViewServer>>;
let store: Store;

beforeAll(async () => {
  const writer = new Store(path);
  writer.ensureRun(testRun({ id: 'r1', createdAt: '2026-11-22T00:00:00Z' }));
  for (const [index, esm] of [1, 0, 1, 1].entries()) writer.putResult(niahResult(`s${index}`, esm));
  writer.close();
  store = new Store(path, { readonly: true });
  viewer = await startViewServer({ store, suites: SUITES, host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await viewer.close();
  store.close();
});

describe('view server', () => {
  it('binds 127.0.0.1 and serves the page with a strict Content-Security-Policy', async () => {
    expect(viewer.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(viewer.url);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await response.text()).toContain('<script src="app.js"></script>');
  });

  it('answers the fixed API routes with the store’s numbers', async () => {
    const summary = (await (await fetch(`${viewer.url}api/run?id=r1`)).json()) as {
      groups: Array<{
        group: string;
        metrics: Record<string, { estimate: number }>;
        grid: { cells: Record<string, { n: number }> };
      }>;
    };
    const [group] = summary.groups;
    expect(group!.group).toBe('niah-en');
    expect(group!.metrics.esm!.estimate).toBe(0.75);
    expect(group!.grid.cells['50|1000']!.n).toBe(4);
  });

  it('sends one filtered page of a sample list', async () => {
    const get = async (query: string) =>
      (await (await fetch(`${viewer.url}api/samples?run=r1&group=niah-en${query}`)).json()) as {
        total: number;
        matched: number;
        offset: number;
        rows: Array<{ id: string }>;
        options: { status: string[]; level: string[] };
      };
    const page = await get('&offset=1&limit=2&status=ok');
    expect(page).toMatchObject({
      matched: page.total,
      offset: 1,
      options: { status: ['ok'], level: ['1000'] },
    });
    expect(page.rows.map((row) => row.id)).toEqual(['s1', 's2']);
    const none = await get('&offset=0&status=error');
    expect([none.matched, none.rows.length]).toEqual([0, 0]);
    // Without an offset: the first page of 100.
    const first = await get('');
    expect([first.offset, first.rows.length]).toEqual([0, Math.min(100, first.total)]);
  });

  it('refuses anything else: other paths, traversal, unknown routes, writes', async () => {
    for (const path of [
      'etc/passwd',
      '..%2f..%2fetc%2fpasswd',
      'api/drop',
      'app.js/../../package.json',
      'src/view/view-server.ts',
    ])
      expect((await fetch(`${viewer.url}${path}`)).status, path).toBe(404);
    expect((await fetch(`${viewer.url}api/run?id=r1`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${viewer.url}api/run?id=missing`)).status).toBe(404);
    // Known routes with a group, suite or pair that does not exist are 404 too, never an empty 200.
    for (const query of [
      'samples?run=r1&group=nope',
      'samples?run=r1&group=nope&offset=0',
      'leaderboard?suite=nope',
      'compare?a=r1&b=r1&group=nope',
      'sample?run=r1&id=nope',
    ])
      expect((await fetch(`${viewer.url}api/${query}`)).status, query).toBe(404);
    expect((await fetch(`${viewer.url}api/samples?run=r1&group=niah-en`)).status).toBe(200);
  });

  it('sees results a run commits while the viewer is open', async () => {
    const first = (await (await fetch(`${viewer.url}api/leaderboard?suite=medodyssey`)).json()) as {
      rows: Array<{ samples: number }>;
    };
    const writer = new Store(path);
    writer.putResult(niahResult('s9', 0));
    writer.close();
    const second = (await (await fetch(`${viewer.url}api/leaderboard?suite=medodyssey`)).json()) as {
      rows: Array<{ samples: number }>;
    };
    expect([first.rows[0]!.samples, second.rows[0]!.samples]).toEqual([4, 5]);
  });

  it('answers only requests addressed to it: another Host (DNS rebinding) gets 403', async () => {
    const port = Number(new URL(viewer.url).port);
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpGet(
          { host: '127.0.0.1', port, path: '/api/overview', headers: { host } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
      });
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`])
      expect(await statusFor(host), host).toBe(200);
    for (const host of [
      `attacker.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost:${port + 1}`,
      `192.168.1.5:${port}`,
      'localhost',
    ])
      expect(await statusFor(host), host).toBe(403);
  });

  it('opens the store read-only', () => {
    expect(() => store.deleteRun('r1')).toThrow(/readonly/i);
  });
});
