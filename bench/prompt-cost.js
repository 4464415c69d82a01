// The headline of issue 34: what one model's run of the published MedOdyssey grid costs when
// medbench sends it naively (no cache hints: every input token at list price), with prompt caching
// (prefix order + each provider's cache hints), and with caching + the provider's batch API — for
// an Anthropic-priced model (claude-sonnet-4-5) and an OpenAI-priced one (gpt-4.1).
//
// Every request goes over HTTP from the built CLI (`medbench run`, `--no-prompt-cache`, `--batch`)
// to local stand-ins of the providers' platforms (test/support/platform/, written from the API
// references: each documented caching rule, batch lifecycle, token reporting and price table,
// with a billing ledger). The cost figures are the platforms' ledgers; medbench's own report must
// print the same. The scores of the three runs must be identical, sample for sample.
//
// Data: NIAH and Counting (en + zh) built from the official release byte for byte (ratio MIC, the
// published grid: 7 levels × 5 depths × 20 needles, 4 types × 7 levels). The KG, Term, Table and
// Case prompts were not published (only their questions and token counts), so those six datasets
// enter at their published token counts (GPT-4o's outputs' `token_len`) with no cache share at all,
// at list price, or at the batch price in the batch configuration: the figures are an upper bound.
// Tokens are counted with o200k_base for both platforms (Claude's tokenizer is not public).
//
// Usage: npm run build && node bench/prompt-cost.js [release folder]   (LEVELS=4000,8000 to try it;
//        PROFILES=openai or anthropic for one of the two)
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { getTokenizer, prepareMedOdysseyBuild, writeDataset } from '../dist/index.js';
import { gridRequest, releaseFolder } from './published-grid.js';

const data = releaseFolder();
const root = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'medbench-prompt-cost-'));

/** The platforms, bundled from their TypeScript sources for this script. */
async function loadPlatforms() {
  // Inside the project, so that the bundle resolves the packages it leaves out.
  const outfile = join(root, 'node_modules', '.cache', 'medbench-bench', 'platforms.mjs');
  await build({
    stdin: {
      contents: [
        "export { startOpenAIPlatform } from './test/support/platform/openai-platform.ts';",
        "export { startAnthropicPlatform } from './test/support/platform/anthropic-platform.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  // The platforms read the providers' documented error bodies beside their own file.
  cpSync(join(root, 'test', 'support', 'providers', 'fixtures'), join(outfile, '..', 'fixtures'), {
    recursive: true,
  });
  return import(outfile);
}

/** The grid, written as a dataset file; its samples' count and characters. */
async function writeGrid() {
  const { samples } = await prepareMedOdysseyBuild({ ...gridRequest(data), mic: 'ratio', tokenizers: [] });
  const path = join(scratch, 'grid.jsonl');
  let characters = 0;
  const written = await writeDataset({
    path,
    header: {
      suite: 'medodyssey',
      createdAt: new Date().toISOString(),
      generator: 'bench',
      build: {},
      tokenizers: [],
    },
    samples: (function* () {
      for (const sample of samples) {
        characters += sample.prompt.length;
        yield sample;
      }
    })(),
  });
  return { path, count: written.count, characters };
}

/** The six datasets whose prompts were not published: their input tokens as GPT-4o's outputs record them. */
function unpublishedTokens() {
  const folder = join(data, 'evaluation_result', 'task_result');
  let tokens = 0;
  for (const name of readdirSync(folder)) {
    if (!/^(en|zh)_(kg|norm|table|medcase)_gpt-4o_v1\.jsonl$/.test(name)) continue;
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n'))
      if (line.trim()) tokens += JSON.parse(line).token_len ?? 0;
  }
  return tokens;
}

const PROFILES = [
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    start: 'startAnthropicPlatform',
    keyEnv: 'ANTHROPIC_API_KEY',
  },
  { provider: 'openai', model: 'gpt-4.1', start: 'startOpenAIPlatform', keyEnv: 'OPENAI_API_KEY' },
];

/** PROFILES=openai (or anthropic) runs one of them. */
const only = process.env.PROFILES?.split(',');

const CONFIGS = [
  { name: 'naive (no cache hints)', flags: ['--no-prompt-cache'] },
  { name: 'medbench: prefix order + caching', flags: [] },
  { name: 'medbench: caching + batch', flags: ['--batch', '--batch-poll-ms', '50'] },
];

/**
 * The built CLI in a child process, awaited (the platforms answer from this process's event loop,
 * so it must stay free): its exit code and output.
 */
function cli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'medbench.js'), ...args], { env });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** One CLI run into a fresh home; the report's usage rows and every result's scores. */
async function runCli(profile, url, prices, dataset, flags) {
  const home = mkdtempSync(join(scratch, 'home-'));
  const config = join(home, 'medbench.config.json');
  const endpoint =
    profile.provider === 'openai'
      ? { baseURL: `${url}/v1`, apiKeyEnv: 'BENCH_KEY' }
      : { baseURL: url, apiKeyEnv: 'BENCH_KEY' };
  writeFileSync(
    config,
    JSON.stringify({
      models: {
        bench: {
          provider: profile.provider,
          model: profile.model,
          contextWindow: 1_000_000,
          endpoints: [endpoint],
          prices: configPrices(prices),
        },
      },
    }),
  );
  const env = { ...process.env, BENCH_KEY: 'bench-key' };
  const started = performance.now();
  const run = await cli(
    ['--home', home, 'run', '--dataset', dataset, '--model', 'bench', '--config', config, ...flags],
    env,
  );
  if (run.code !== 0)
    throw new Error(`medbench run ${flags.join(' ')} exited ${run.code}:\n${run.stderr.slice(-4000)}`);
  const seconds = (performance.now() - started) / 1000;
  const reported = await cli(['--home', home, 'report', '--json'], env);
  const report = JSON.parse(reported.stdout);
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  const scores = database
    .prepare('SELECT sample_id, status, raw_output, scores_json FROM results ORDER BY sample_id')
    .all();
  database.close();
  return { report, scores, seconds };
}

/** The platform's price table as a config's `prices`: medbench prices its answers by the same list. */
function configPrices(prices) {
  return {
    inputPerMillion: prices.inputPerMillion,
    outputPerMillion: prices.outputPerMillion,
    cachedInputPerMillion: prices.cachedInputPerMillion,
    cacheWritePerMillion: prices.cacheWritePerMillion,
    batchMultiplier: prices.batchMultiplier,
  };
}

/** What a ledger's totals cost at list price: every prompt token at the input price, no cache, no batch. */
function listCost(totals, prices) {
  return (totals.promptTokens * prices.inputPerMillion + totals.outputTokens * prices.outputPerMillion) / 1e6;
}

const platforms = await loadPlatforms();
const o200k = await getTokenizer('o200k_base');
const counts = new Map();
/** o200k tokens of a text, memoised by the text's length and ends (the platforms count prefixes repeatedly). */
const countTokens = (text) => {
  const key = `${text.length}:${text.slice(0, 64)}:${text.slice(-64)}`;
  let count = counts.get(key);
  if (count === undefined) {
    count = o200k.count(text);
    if (counts.size > 200_000) counts.clear();
    counts.set(key, count);
  }
  return count;
};

const grid = await writeGrid();
const extraTokens = unpublishedTokens();
console.log(
  `${grid.count} NIAH + Counting prompts (${(grid.characters / 1e6).toFixed(1)} M characters) sent; KG, Term, Table and Case at their published ${(extraTokens / 1e6).toFixed(2)} M input tokens, no cache share`,
);

const rows = [];
for (const profile of PROFILES.filter((p) => !only || only.includes(p.provider))) {
  let naiveList;
  let reference;
  for (const config of CONFIGS) {
    const platform = await platforms[profile.start]({ countTokens });
    try {
      const prices = platform.ledger.prices;
      const { report, scores, seconds } = await runCli(
        profile,
        platform.url,
        prices,
        grid.path,
        config.flags,
      );
      const sums = platform.ledger.totals();
      reference ??= scores;
      const same = JSON.stringify(scores) === JSON.stringify(reference);
      const batch = config.flags.includes('--batch');
      const extraCost = ((extraTokens * prices.inputPerMillion) / 1e6) * (batch ? prices.batchMultiplier : 1);
      const extraList = (extraTokens * prices.inputPerMillion) / 1e6;
      naiveList ??= listCost(sums, prices) + extraList;
      const usage = report.usage ?? [];
      const reported = usage.reduce((sum, row) => sum + (row.cost ?? 0), 0);
      rows.push({
        model: `${profile.provider}:${profile.model}`,
        config: config.name,
        seconds,
        inputTokens: sums.promptTokens,
        cachedTokens: sums.cachedInputTokens,
        writtenTokens: sums.cacheWriteTokens,
        cost: sums.cost + extraCost,
        reported: reported + extraCost,
        ratio: (sums.cost + extraCost) / naiveList,
        same,
      });
      console.log(JSON.stringify(rows.at(-1)));
    } finally {
      await platform.close();
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

console.log(
  '\nModel | Configuration | Input tokens | Cached | Cache-written | Cost (platform) | Cost (medbench report) | × naive list price | Scores',
);
for (const row of rows)
  console.log(
    [
      row.model,
      row.config,
      row.inputTokens.toLocaleString('en-US'),
      row.cachedTokens.toLocaleString('en-US'),
      row.writtenTokens.toLocaleString('en-US'),
      `$${row.cost.toFixed(2)}`,
      `$${row.reported.toFixed(2)}`,
      row.ratio.toFixed(3),
      row.same ? 'identical' : 'DIFFER',
    ].join(' | '),
  );
const wrong = rows.filter((row) => !row.same || Math.abs(row.cost - row.reported) > 1e-6 * row.cost);
if (wrong.length > 0) {
  console.error(`${wrong.length} configurations differ in scores or in cost from the platform's ledger`);
  process.exitCode = 1;
}
