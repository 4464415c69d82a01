import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeClueLeaderboardRuns } from '../../test/support/clue-leaderboard-runs.js';
import { testRun } from '../../test/support/test-run.js';
import { SUITES } from '../compose/suites.js';
import { NO_MODEL_CALL, Store } from '../store/store.js';
import { ViewData } from './view-data.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-view-data-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function storeWith(outputs: Record<string, string>): Store {
  const store = new Store(join(folder, `${Object.keys(outputs).join('-')}.sqlite`));
  store.ensureRun(testRun({ id: 'r' }));
  for (const [sampleId, rawOutput] of Object.entries(outputs))
    store.putResult({
      runId: 'r',
      sampleId,
      task: 'niah',
      params: { language: 'en', level: 1000, depth: 50, needleType: 'Medical' },
      gold: { answers: ['x'] },
      prompt: null,
      promptChars: 1,
      promptTokens: 1,
      status: 'ok',
      rawOutput,
      parsed: rawOutput,
      scores: { esm: 0, ssm: 0 },
      ...NO_MODEL_CALL,
    });
  return store;
}

describe('sample list', () => {
  it('lists ids in natural order and searches ids, parameters and outputs without regard to case', () => {
    const store = storeWith({ s10: 'The answer is PARIS.', s2: '答案是巴黎。', s1: 'no idea' });
    try {
      const view = new ViewData(store, SUITES);
      const ids = (q: string) => view.sampleList('r', 'niah-en', { q })!.rows.map((row) => row.id);
      expect(view.sampleList('r', 'niah-en')!.rows.map((row) => row.id)).toEqual(['s1', 's2', 's10']);
      expect(ids('paris')).toEqual(['s10']);
      expect(ids('巴黎')).toEqual(['s2']);
      expect(ids('S1')).toEqual(['s1', 's10']);
      expect(ids('medical')).toEqual(['s1', 's2', 's10']);
      expect(ids('nowhere')).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('a sample knows its neighbours in the list under the same filters', () => {
    const store = storeWith({ a1: 'PARIS', a2: 'london', a3: 'Paris, France', a4: 'rome' });
    try {
      const view = new ViewData(store, SUITES);
      const steps = (id: string, q?: string) => view.sample('r', id, q ? { q } : {})!.neighbours;
      expect(steps('a1')).toEqual({ previous: null, next: 'a2' });
      expect(steps('a3')).toEqual({ previous: 'a2', next: 'a4' });
      expect(steps('a1', 'paris')).toEqual({ previous: null, next: 'a3' });
      expect(steps('a3', 'paris')).toEqual({ previous: 'a1', next: null });
      // A sample outside the filter has no neighbours in it.
      expect(steps('a2', 'paris')).toEqual({ previous: null, next: null });
    } finally {
      store.close();
    }
  });
});

describe('leaderboard ranks', () => {
  it("CLUE's: rank intervals on its Level average, the leaderboard's own average; none for compare's primary metrics", () => {
    const home = mkdtempSync(join(folder, 'clue-'));
    writeClueLeaderboardRuns(home);
    const store = new Store(join(home, 'medbench.sqlite'));
    try {
      const view = new ViewData(store, SUITES);
      const ranks = view.ranks('clue', 'levels')!;
      const board = view.leaderboard('clue')!;
      // full: Level 1 63.33…, Level 2 48.33…; half: each halved.
      expect(
        ranks.entries.map((entry) => [entry.runId, 100 * entry.average, entry.lower, entry.upper]),
      ).toEqual([
        ['full', expect.closeTo(55.8333, 3), 1, 1],
        ['half', expect.closeTo(27.9167, 3), 2, 2],
      ]);
      for (const entry of ranks.entries) {
        const { level1, level2 } = board.rows.find((row) => row.runId === entry.runId)!.values.levels!;
        expect(100 * entry.average).toBeCloseTo((level1! + level2!) / 2, 8);
      }
      expect(view.ranks('clue', 'primary')).toBeUndefined();
      // The leaderboard's level scores carry their 95% intervals (the report's, ×100 as the values).
      const full = board.rows.find((row) => row.runId === 'full')!;
      const level1 = full.intervals!.levels!.level1!;
      expect(level1.lower).toBeLessThan(full.values.levels!.level1!);
      expect(level1.upper).toBeGreaterThan(full.values.levels!.level1!);
      expect(full.intervals!.metrics!['mednli accuracy']).toMatchObject({
        lower: expect.closeTo(30.06, 2),
        upper: expect.closeTo(95.44, 2),
      });
      // The "Every metric" leaderboard has its rank intervals too: 59.375 against 29.6875.
      expect(
        view.ranks('clue', 'metrics')!.entries.map((entry) => [entry.runId, 100 * entry.average]),
      ).toEqual([
        ['full', expect.closeTo(59.375, 8)],
        ['half', expect.closeTo(29.6875, 8)],
      ]);
    } finally {
      store.close();
    }
  });
});
