import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReviewStore } from '../../test/support/review-store.js';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { SUITES } from '../compose/suites.js';
import { Store } from '../store/store.js';
import { GRADE_BODY_LIMIT } from './grade-route.js';
import { ReviewData } from './review-data.js';
import type { ReviewItemPayload, ReviewQueuePayload } from './shared/review-types.js';
import { startViewServer } from './view-server.js';

const path = join(temporaryFolder('medbench-grade-route-'), 'medbench.sqlite');
let reader: Store;
let writer: Store;
let viewer: Awaited<ReturnType<typeof startViewServer>>;
let readOnlyViewer: Awaited<ReturnType<typeof startViewServer>>;
let origin = '';
let token = '';

/** A POST to /api/grade with exactly these headers (Host added), as a browser or another page would send it. */
function post(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: { error?: string; token?: string; score?: number } }> {
  const { host, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path: '/api/grade', method: 'POST', headers: { host, ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const get = async <T>(route: string) => (await (await fetch(`${viewer.url}api/${route}`)).json()) as T;

beforeAll(async () => {
  writeReviewStore(path, 3);
  reader = new Store(path, { readonly: true });
  writer = new Store(path);
  const review = new ReviewData(reader, SUITES, { reviewer: 'alice' });
  viewer = await startViewServer({
    store: reader,
    suites: SUITES,
    host: '127.0.0.1',
    port: 0,
    review,
    writeGrade: (grade) => writer.humanGrades.add(grade),
  });
  readOnlyViewer = await startViewServer({ store: reader, suites: SUITES, host: '127.0.0.1', port: 0 });
  origin = viewer.url.replace(/\/$/, '');
  const shell = await (await fetch(viewer.url)).text();
  token = /<meta name="medbench-token" content="([0-9a-f]{64})">/.exec(shell)![1]!;
});

afterAll(async () => {
  await viewer.close();
  await readOnlyViewer.close();
  reader.close();
  writer.close();
});

describe('POST /api/grade', () => {
  it('refuses a grade without the page token, from another origin, of another type, too large or not a grade — and stores nothing', async () => {
    const { item } = await get<ReviewQueuePayload>('queue?suite=clue&task=meqsum');
    const verdicts = Object.fromEntries(item!.rubric.criteria.map((criterion) => [criterion.id, true]));
    const good = JSON.stringify({ suite: 'clue', task: 'meqsum', token: item!.token, verdicts });
    const headers = { ...json, origin, 'x-medbench-token': token };
    const cases: Array<[Record<string, string>, string, number, RegExp]> = [
      [{ ...json, origin }, good, 403, /page token is missing/],
      [{ ...headers, 'x-medbench-token': `${token.slice(1)}0` }, good, 403, /page token is missing or stale/],
      [{ ...headers, origin: 'http://attacker.example' }, good, 403, /not http:\/\/attacker\.example/],
      [{ ...headers, origin: 'null' }, good, 403, /own page/],
      [{ ...headers, 'sec-fetch-site': 'cross-site' }, good, 403, /own page/],
      [{ ...headers, 'content-type': 'text/plain' }, good, 415, /application\/json/],
      [headers, 'x'.repeat(GRADE_BODY_LIMIT + 1), 413, /at most 65536 bytes/],
      [headers, '{"suite": ', 400, /not JSON/],
      [
        headers,
        JSON.stringify({ ...JSON.parse(good), verdicts: {} }),
        400,
        new RegExp(
          `^No verdict for ${item!.rubric.criteria.length} criteria: ${item!.rubric.criteria.map((criterion) => criterion.id).join(', ')}; mark each met or not met\\.$`,
        ),
      ],
      [headers, JSON.stringify({ ...JSON.parse(good), token: 'ffffffffffffffff' }), 400, /No item/],
      [headers, JSON.stringify({ ...JSON.parse(good), task: 'unknown' }), 400, /No reviewable task/],
    ];
    for (const [sent, body, status, message] of cases) {
      const answer = await post(viewer.url, sent, body);
      expect([answer.status, answer.body.error], body.slice(0, 40)).toEqual([
        status,
        expect.stringMatching(message),
      ]);
    }
    // A viewer started without --reviewer takes no grade, whatever it is sent.
    const readOnly = await post(readOnlyViewer.url, { ...json }, good);
    expect([readOnly.status, readOnly.body.error]).toEqual([403, expect.stringMatching(/--reviewer NAME/)]);
    expect((await fetch(`${viewer.url}api/grade`, { method: 'PUT', body: good })).status).toBe(405);
    expect(writer.humanGrades.history()).toEqual([]);
  });

  it('stores a good grade with reviewer, time, rubric and score; a second submit is an edit kept beside the first', async () => {
    const { item } = await get<ReviewQueuePayload>('queue?suite=clue&task=meqsum');
    const ids = item!.rubric.criteria.map((criterion) => criterion.id);
    const headers = { ...json, origin, 'x-medbench-token': token };
    const send = (met: (id: string, index: number) => boolean, note: string) =>
      post(
        viewer.url,
        headers,
        JSON.stringify({
          suite: 'clue',
          task: 'meqsum',
          token: item!.token,
          verdicts: Object.fromEntries(ids.map((id, index) => [id, met(id, index)])),
          note,
        }),
      );
    const first = await send((_, index) => index === 0, 'first look');
    expect(first).toMatchObject({ status: 200, body: { token: item!.token } });
    expect(Object.keys(first.body).sort()).toEqual(['gradedAt', 'score', 'token']);
    const edit = await send(() => false, 'on reflection');
    expect(edit.status).toBe(200);
    const history = writer.humanGrades.history({ reviewer: 'alice' });
    expect(history.map((grade) => [grade.note, grade.score, grade.source])).toEqual([
      ['first look', first.body.score, 'viewer'],
      ['on reflection', 0, 'viewer'],
    ]);
    expect(history[0]).toMatchObject({
      task: 'meqsum',
      rubricVersion: '1',
      rubricSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(new Set(history.map((grade) => `${grade.runId}/${grade.sampleId}`)).size).toBe(1);
    // The item's page lists both; the queue moves on.
    const again = await get<ReviewItemPayload>(`item?suite=clue&task=meqsum&token=${item!.token}`);
    expect(again.history.map((grade) => grade.note)).toEqual(['first look', 'on reflection']);
    const next = await get<ReviewQueuePayload>('queue?suite=clue&task=meqsum');
    expect(next.item!.token).not.toBe(item!.token);
    expect(next.counts).toMatchObject({ items: 6, graded: 1, mine: 1 });
  });
});
