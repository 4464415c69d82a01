import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../../store/store.js';
import { getTokenizer } from '../../../tokenizers/registry.js';
import { loadMedEurekaRelease } from '../load-release.js';
import { evaluateRetriever } from './evaluate-retriever.js';

const SAMPLE = join(import.meta.dirname, '../../../../samples/medeureka');
const homes: string[] = [];
const newHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'medbench-retriever-'));
  homes.push(home);
  return home;
};
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** What the hooks were told: notices, the computed run's line, reports. */
function listener() {
  const told = { notices: [] as string[], computed: [] as string[], reports: [] as string[] };
  return {
    told,
    hooks: {
      onNotice: (text: string) => told.notices.push(text),
      onComputed: (summary: { detail: string }) => told.computed.push(summary.detail),
      onReport: (text: string) => told.reports.push(text),
    },
  };
}

describe('evaluateRetriever (the library: plan + runSuite)', () => {
  it('keeps the run ids runs had before the move (pinned on the shipped sample)', async () => {
    const home = newHome();
    const ids = [];
    for (const request of [{}, { limit: 1 }, { model: 'lsa', redact: true }])
      ids.push((await evaluateRetriever({ data: SAMPLE, model: 'bm25', home, ...request })).id);
    expect(ids).toEqual(['a32152a4fc65e3f6', '7a079beba31431a2', '64a5005ccd4b3e97']);
  });

  it('a dry run tells what would be ranked and stores nothing; shards rank their queries, together the whole run', async () => {
    const home = newHome();
    const dry = listener();
    await evaluateRetriever({ data: SAMPLE, model: 'bm25', home, dryRun: true }, dry.hooks);
    expect(dry.told.reports.join('\n')).toMatch(/^all\t18\t0\t44$/m);
    expect(dry.told.reports.join('\n')).toContain('bm25 ranks in this process: nothing is sent');
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);

    const shards = [1, 2].map(() => listener());
    for (const [index, shard] of shards.entries())
      await evaluateRetriever(
        { data: SAMPLE, model: 'bm25', home, shard: { index: index + 1, count: 2 } },
        shard.hooks,
      );
    const store = new Store(join(home, 'medbench.sqlite'));
    try {
      expect(store.listRuns({ suite: 'medeureka' })).toHaveLength(1);
      expect(store.results('a32152a4fc65e3f6')).toHaveLength(18);
    } finally {
      store.close();
    }
    const ranked = shards.map((shard) => Number(/Ranked (\d+) queries/.exec(shard.told.computed[0]!)?.[1]));
    expect(ranked[0]! + ranked[1]!).toBe(18);
    expect(ranked.every((count) => count > 0)).toBe(true);
    const whole = listener();
    await evaluateRetriever({ data: SAMPLE, model: 'bm25', home }, whole.hooks);
    expect(whole.told.computed[0]).toContain('Ranked 0 queries of 6 tasks');
    expect(whole.told.computed[0]).toContain('18 ranked before');
  });

  it("a dry run of an embedding model counts the texts it would be sent, in the model's tokens when medbench has its tokenizer", async () => {
    const home = newHome();
    const tasks = await loadMedEurekaRelease(SAMPLE);
    const texts = [...new Set(tasks.flatMap((task) => task.corpus))].concat([
      ...new Set(tasks.flatMap((task) => task.queries.map((query) => query.query))),
    ]);
    const cl100k = await getTokenizer('cl100k_base');
    const tokens = texts.reduce((sum, text) => sum + cl100k.count(text), 0);
    // Nothing listens on port 9: a dry run that sent anything would fail.
    const openai = listener();
    await evaluateRetriever(
      {
        data: SAMPLE,
        model: 'openai-compatible:text-embedding-3-small@http://127.0.0.1:9/v1',
        home,
        dryRun: true,
      },
      openai.hooks,
    );
    expect(openai.told.reports[0]).toContain(
      `text-embedding-3-small at http://127.0.0.1:9/v1 would be sent ${texts.length} texts (44 corpus texts, 18 queries; ${texts.join('').length} characters, ${tokens} cl100k_base tokens); 0 more are in the embedding cache. The cost is not estimated`,
    );
    const other = listener();
    await evaluateRetriever(
      { data: SAMPLE, model: 'openai-compatible:bge-m3@http://127.0.0.1:9/v1', home, dryRun: true },
      other.hooks,
    );
    expect(other.told.reports[0]).toContain(
      'Tokens and cost are not estimated: medbench knows no tokenizer for bge-m3',
    );
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);
  });

  it('--max-cost: refused for an embedding model without prices, said to cost nothing for BM25', async () => {
    const home = newHome();
    await expect(
      evaluateRetriever({
        data: SAMPLE,
        model: 'openai-compatible:e5@http://127.0.0.1:9/v1',
        home,
        maxCost: 1,
      }),
    ).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('no prices for the embedding model e5'),
    });
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);
    const sparse = listener();
    await evaluateRetriever({ data: SAMPLE, model: 'bm25', home, maxCost: 1, limit: 1 }, sparse.hooks);
    expect(sparse.told.notices[0]).toBe(
      '--max-cost 1: bm25 runs in this process and sends nothing, so the run costs nothing.',
    );
  });
});
