// Exact-MIC build speed: builds the full en + zh NIAH and Counting grid (7 levels × 5 depths
// × 20 needles, and 4 types × 7 levels, per language) in `exact` mode for o200k_base plus one
// open-model tokenizer, then times one plain tokenization pass over every final prompt with the
// same tokenizers — the floor for verifying every prompt — in the same process; three rounds
// (REPEATS), spreads printed. Target: build <= 0.25× the pass (token counts derived from the
// haystack's prefix sums, never a full pass) and peak memory < 1.5 GB.
// Usage: npm run build && node bench/build-exact.js [release folder] [open tokenizer]
//        (the folder defaults to $MEDBENCH_SHARED_DATA/medodyssey; LEVELS=4000,8000 for a quick
//        look; VERIFY=1 also tokenizes every final prompt while building)
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { getTokenizer, prepareMedOdysseyBuild, writeDataset } from '../dist/index.js';
import { gridRequest, levels, releaseFolder } from './published-grid.js';

const data = releaseFolder();
const open = process.argv[3] ?? 'llama3';
// VERIFY=1 also tokenizes every final prompt while building.
const verifyCounts = process.env.VERIFY === '1';
const repeats = Number(process.env.REPEATS ?? 3);
const tokenizers = [await getTokenizer('o200k_base'), await getTokenizer(open)];
const folder = mkdtempSync(join(tmpdir(), 'medbench-bench-build-'));
const out = join(folder, 'exact.jsonl');

/** One exact build of the grid, written to `out`: seconds, statistics and sample count. */
async function build() {
  const started = performance.now();
  const { samples, statistics } = await prepareMedOdysseyBuild({
    ...gridRequest(data),
    mic: 'exact',
    tokenizers,
    verifyCounts,
  });
  const written = await writeDataset({
    path: out,
    header: {
      suite: 'medodyssey',
      createdAt: new Date().toISOString(),
      generator: 'bench',
      build: {},
      tokenizers: tokenizers.map((t) => t.name),
    },
    samples,
  });
  return { seconds: (performance.now() - started) / 1000, statistics, count: written.count };
}

/** The reference: one tokenization pass over every final prompt, timing only the counting. */
async function plainPass() {
  let seconds = 0;
  let characters = 0;
  const lines = createInterface({
    input: createReadStream(out, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let header = true;
  for await (const line of lines) {
    if (header) {
      header = false;
      continue;
    }
    const { prompt } = JSON.parse(line);
    characters += prompt.length;
    const before = performance.now();
    for (const tokenizer of tokenizers) tokenizer.count(prompt);
    seconds += (performance.now() - before) / 1000;
  }
  return { seconds, characters };
}

const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${sorted[0].toFixed(3)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}, max ${sorted.at(-1).toFixed(3)}`;
};

try {
  const builds = [];
  const passes = [];
  let last;
  for (let round = 0; round < repeats; round++) {
    // Side by side in each round: the build, then the plain pass over what it wrote.
    last = await build();
    builds.push(last.seconds);
    const pass = await plainPass();
    passes.push(pass.seconds);
    console.log(
      `round ${round + 1}: build ${last.seconds.toFixed(1)} s, plain pass ${pass.seconds.toFixed(1)} s, ratio ${(last.seconds / pass.seconds).toFixed(3)} (${last.count} samples, ${(pass.characters / 1e6).toFixed(1)} M prompt characters)`,
    );
  }
  const peakMegabytes = process.resourceUsage().maxRSS / 1024;
  console.log(`tokenizers ${tokenizers.map((t) => t.name).join(' + ')}; levels ${levels.join(', ')}`);
  console.log(
    `corpus exhausted: ${last.statistics.corpusExhausted} samples; fast/full count mismatches: ${last.statistics.fastCountMismatches}${verifyCounts ? `; verified ${last.statistics.verified ?? 0} fitted prompts` : ''}`,
  );
  console.log(`exact build seconds: ${spread(builds)}; plain tokenization pass seconds: ${spread(passes)}`);
  console.log(
    `ratio build / plain pass: ${spread(builds.map((seconds, index) => seconds / passes[index]))} (target <= 0.25${verifyCounts ? '; this build verified every count, so it pays a full pass itself' : ''})`,
  );
  console.log(`peak memory: ${peakMegabytes.toFixed(0)} MB (target < 1536 MB)`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
