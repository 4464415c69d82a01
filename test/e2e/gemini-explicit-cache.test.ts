import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type GeminiPlatform, startGeminiPlatform } from '../support/platform/gemini-platform.js';
import { geminiKiller, type Killer, modelConfig, storedColumn } from './batch-runs.js';
import { reportJson, runCli, temporaryHome } from './cli.js';

/**
 * Gemini's explicit cache on a CLUE few-shot run (MedNLI: a system prompt and three shots as
 * user and assistant turns, the same for every item), against the Gemini platform. Gemini 2.0
 * Flash caches nothing implicitly: without the explicit cache every request pays its shots.
 */
const scratch = temporaryHome();
const environment = { GEMINI_KEY_FOR_TEST: 'gemini-test-cache-5d1a' };
/** Gemini 2.0 Flash's list prices: $0.10 input, $0.025 cached, $0.40 output, $1.00 per million tokens an hour held. */
const PRICES = {
  inputPerMillion: 0.1,
  outputPerMillion: 0.4,
  cachedInputPerMillion: 0.025,
  cacheWritePerMillion: 0.1,
  batchMultiplier: 0.5,
  storagePerMillionPerHour: 1,
};
let platform: GeminiPlatform;
let proxy: Killer;

/** Case notes of numbered days; or plain prose, which o200k_base counts at fewer tokens than the platform (a quarter of its characters). */
type NoteStyle = 'days' | 'prose';
const noteLine = (style: NoteStyle, line: number, index: number) =>
  style === 'days'
    ? `Day ${line} note ${index}: stable, afebrile.`
    : 'The patient remained comfortable overnight and reported nothing new. ';

/** A MedNLI file: three shots whose premises are long case notes, then `items` short pairs. */
function mednli(folder: string, items: number, shotChars: number, style: NoteStyle): string {
  const labels = ['entailment', 'neutral', 'contradiction'];
  const note = (index: number) =>
    `Note ${index}. ${Array.from({ length: shotChars / 40 }, (_, line) => noteLine(style, line, index)).join(' ')}`.slice(
      0,
      shotChars,
    );
  const rows = Array.from({ length: 3 + items }, (_, index) =>
    JSON.stringify({
      sentence1: index < 3 ? note(index) : `Premise ${index}.`,
      sentence2: `Hypothesis ${index}.`,
      gold_label: labels[index % 3],
      pairID: `p${index}`,
    }),
  );
  writeFileSync(join(folder, 'mli_test_v1.jsonl'), rows.join('\n'));
  return folder;
}

function clueData(name: string, items: number, shotChars: number, style: NoteStyle = 'days'): string {
  const folder = join(scratch, name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder);
  writeClueFixtures(folder);
  return mednli(folder, items, shotChars, style);
}

beforeAll(async () => {
  platform = await startGeminiPlatform({
    prices: PRICES,
    // The answer is a function of the exact text the model reads: another text, another score.
    answer: (prompt) => ['ENTAILMENT', 'NEUTRAL', 'CONTRADICTION'][prompt.length % 3]!,
  });
  // Armed, it kills the run at its first generateContent: after the cache was made and recorded.
  proxy = await geminiKiller(
    () => platform.url,
    (method, path) => method === 'POST' && path.includes(':generateContent'),
  );
});
afterAll(async () => {
  await proxy.close();
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

const config = () =>
  modelConfig(scratch, {
    provider: 'gemini',
    model: 'gemini-2.0-flash',
    prices: { inputPerMillion: 0.1, outputPerMillion: 0.4 },
    endpoints: [{ baseURL: proxy.url, apiKeyEnv: 'GEMINI_KEY_FOR_TEST' }],
  });

const runArgs = (home: string, data: string, extra: readonly string[] = []) => [
  ...['--home', home, 'run', 'clue', '--data', data, '--tasks', 'mednli'],
  ...['--model', 'gpt', '--config', config(), ...extra],
];

/** A run of MedNLI into a new home; what the platform billed for it (storage settled) and the home. */
async function billedRun(data: string, extra: readonly string[] = [], exit: 'ok' | 'exits' = 'ok') {
  const home = temporaryHome();
  const from = platform.ledger.entries.length;
  const caches = platform.explicitCaches.size;
  const ran = await runCli(runArgs(home, data, extra), environment);
  if (exit === 'ok') expect(ran.code, ran.stderr).toBe(0);
  platform.settleStorage();
  const entries = platform.ledger.entries.slice(from);
  // What the run says it paid: the answers, and its explicit caches apart.
  const paid = Number(/^Done: .*, cost ([\d.]+)\.$/m.exec(ran.stderr)?.[1]);
  const caching = Number(/^Explicit prompt caches: .* cost ([\d.]+) to make/m.exec(ran.stderr)?.[1] ?? 0);
  return {
    home,
    stderr: ran.stderr,
    said: paid + caching,
    cost: entries.reduce((sum, entry) => sum + entry.cost, 0),
    cachesMade: platform.explicitCaches.size - caches,
    cachedTokens: entries.reduce((sum, entry) => sum + entry.cachedInputTokens, 0),
  };
}

/** The report's scores, without the moments it was made and what the answers cost. */
async function scores(home: string): Promise<unknown> {
  const printed = (await reportJson(home, 'clue', ['generatedAt', 'createdAt'])) as Record<string, unknown>;
  const { usage: _usage, ...rest } = printed;
  return rest;
}

/** The cost `report --json` gives a home's run (its usage rows summed), and of it the explicit caches'. */
async function reportedCost(home: string): Promise<{ cost: number; caches: number }> {
  const printed = (await reportJson(home, 'clue', [])) as {
    usage: Array<{ cost: number; explicitCacheCost?: number }>;
  };
  return {
    cost: printed.usage.reduce((sum, row) => sum + row.cost, 0),
    caches: printed.usage.reduce((sum, row) => sum + (row.explicitCacheCost ?? 0), 0),
  };
}

/** The explicit caches a home's store records (made and not deleted). */
const recorded = (home: string) => storedColumn(home, 'SELECT name FROM explicit_caches');

const live = () => [...platform.explicitCaches.values()].filter((cache) => !cache.deleted);

describe('Gemini explicit cache on a CLUE few-shot run', () => {
  it('holds the shots in one cache, costs less than without, scores the same, deletes it', async () => {
    const data = clueData('many', 20, 12_000);
    const plain = await billedRun(data, ['--no-prompt-cache']);
    expect(plain.cachesMade).toBe(0);
    const cached = await billedRun(data);
    expect(cached.cachesMade).toBe(1);
    // Every item read the shots (about 7,700 tokens) from it.
    expect(cached.cachedTokens).toBe(20 * [...platform.explicitCaches.values()].at(-1)!.tokens);
    expect(cached.cost).toBeLessThan(plain.cost * 0.5);
    // The answers' cost and the caches' (printed apart) are what the platform billed, to the 4 decimals shown.
    expect(plain.said).toBeCloseTo(plain.cost, 4);
    expect(cached.said).toBeCloseTo(cached.cost, 3);
    expect(await scores(cached.home)).toEqual(await scores(plain.home));
    const keys = 'SELECT cache_key FROM responses ORDER BY cache_key';
    expect(storedColumn(cached.home, keys)).toEqual(storedColumn(plain.home, keys));
    expect(live()).toEqual([]);
    expect(recorded(cached.home)).toEqual([]);
    // The report's cost is what the platform billed: the answers and the cache's making and storage.
    const reported = await reportedCost(cached.home);
    expect(reported.caches).toBeGreaterThan(0);
    expect(
      Math.abs(reported.cost - cached.cost),
      JSON.stringify({ reported, ledger: cached.cost, said: cached.said }),
    ).toBeLessThan(1e-6);
    expect(Math.abs((await reportedCost(plain.home)).cost - plain.cost)).toBeLessThan(1e-6);
    console.info(
      `MedNLI, 20 items, 3 shots of 12,000 characters: ledger $${plain.cost.toFixed(6)} without the explicit cache, $${cached.cost.toFixed(8)} with it (medbench says $${plain.said.toFixed(4)} and $${cached.said.toFixed(4)}, answers and caches; the report $${reported.cost.toFixed(8)}, of it the cache $${reported.caches.toFixed(8)})`,
    );
  });

  it('makes no cache where it does not pay: one item, or shots below the minimum', async () => {
    const few = await billedRun(clueData('few', 1, 12_000));
    expect(few.cachesMade).toBe(0);
    const short = await billedRun(clueData('short', 20, 1_600));
    expect(short.cachesMade).toBe(0);
  });

  it('--max-cost counts the cache: one that would pass the cap is not made, and the ledger stays within it', async () => {
    const data = clueData('capped', 20, 12_000, 'prose');
    const plain = await billedRun(data, ['--no-prompt-cache']);
    // One answer sent whole fits (its bound: its o200k_base tokens at the input price, 20 output
    // tokens at the output price); the cache's making and storage on top of it do not. Made, the
    // cache and one answer read from it would bill more than the cap.
    const cap = (plain.cost / 20) * 1.1;
    const capped = await billedRun(data, ['--max-cost', String(cap)], 'exits');
    expect(capped.cost, capped.stderr).toBeGreaterThan(0);
    expect(capped.cost).toBeLessThanOrEqual(cap);
    expect(capped.cachesMade).toBe(0);
    console.info(`--max-cost ${cap.toFixed(8)}: ledger $${capped.cost.toFixed(8)}, no cache made`);
  });

  it('a run killed while its cache lives: the re-run takes it over, makes none, and deletes it', async () => {
    const data = clueData('killed', 20, 12_000);
    const home = temporaryHome();
    const caches = platform.explicitCaches.size;
    await proxy.killAfterCreate(runArgs(home, data), environment);
    expect(platform.explicitCaches.size - caches).toBe(1);
    expect(recorded(home)).toHaveLength(1);
    const rerun = await runCli(runArgs(home, data), environment);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(platform.explicitCaches.size - caches).toBe(1);
    expect(live()).toEqual([]);
    expect(recorded(home)).toEqual([]);
  });
});
