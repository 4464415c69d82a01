// Exact top-500 search: 10,000 queries against 100,000 corpus vectors of 768 dimensions
// (normalised, random), medbench's exactSearch (onnxruntime Gemm + TopK, blocks of queries)
// against numpy in the same run: the one-product form, a blocked form and the bare products
// alone (the arithmetic floor). Three rounds each (REPEATS); prints spreads, the ratios of the
// medians (targets: <= 0.5x numpy with its top-k, <= 1.3x the bare products), peak RSS and whether
// the best hits agree.
// Usage: npm run build && node --max-old-space-size=8192 bench/exact-search.js [queries] [corpus] [dims]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exactSearch } from '../dist/search/exact-search.js';

const [queries, corpusSize, dimensions] = [
  Number(process.argv[2] ?? 10000),
  Number(process.argv[3] ?? 100000),
  Number(process.argv[4] ?? 768),
];
const k = 500;
let state = 7;
const random = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296 - 0.5;
};
function normalisedMatrix(rows) {
  const matrix = new Float32Array(rows * dimensions);
  for (let row = 0; row < rows; row++) {
    let norm = 0;
    for (let column = 0; column < dimensions; column++) {
      const value = random();
      matrix[row * dimensions + column] = value;
      norm += value * value;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let column = 0; column < dimensions; column++) matrix[row * dimensions + column] *= scale;
  }
  return matrix;
}
const queryMatrix = normalisedMatrix(queries);
const corpusMatrix = normalisedMatrix(corpusSize);
const folder = mkdtempSync(join(tmpdir(), 'medbench-search-'));
const queriesPath = join(folder, 'queries.f32');
const corpusPath = join(folder, 'corpus.f32');
writeFileSync(queriesPath, queryMatrix);
writeFileSync(corpusPath, corpusMatrix);

const repeats = Number(process.env.REPEATS ?? 3);
const times = [];
let rankings;
for (let round = 0; round < repeats; round++) {
  const started = performance.now();
  rankings = await exactSearch({ queries: queryMatrix, corpus: corpusMatrix, dimensions, topK: k });
  times.push((performance.now() - started) / 1000);
}
const memory = process.resourceUsage().maxRSS / 1024;

function numpy(mode) {
  return JSON.parse(
    execFileSync(
      'python3',
      [
        join(import.meta.dirname, 'exact-search-reference.py'),
        queriesPath,
        corpusPath,
        queries,
        corpusSize,
        dimensions,
        k,
        mode,
      ],
      { maxBuffer: 1 << 26 },
    ).toString(),
  );
}
const runs = (mode) => Array.from({ length: repeats }, () => numpy(mode));
const blockedRuns = runs('blocked');
const oneProductRuns = runs('one-product');
const matmulRuns = runs('matmul');
rmSync(folder, { recursive: true, force: true });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${sorted[0].toFixed(2)}, median ${median(values).toFixed(2)}, max ${sorted.at(-1).toFixed(2)} s`;
};
const seconds = (list) => list.map((run) => run.seconds);
const agree = blockedRuns[0].first.every((index, row) => rankings[row].indexes[0] === index);
const ratio = (reference) => (median(times) / median(seconds(reference))).toFixed(2);
console.log(
  `exact top-${k}: ${queries} queries x ${corpusSize} corpus x ${dimensions} dims, ${repeats} rounds`,
);
console.log(
  `medbench (onnxruntime, blocked): ${spread(times)}; peak RSS ${memory.toFixed(0)} MiB (target <= 1024)`,
);
console.log(
  `numpy one product + argpartition: ${spread(seconds(oneProductRuns))}; medbench / numpy ${ratio(oneProductRuns)}x (target <= 0.5)`,
);
console.log(
  `numpy blocks of 1,000 queries:    ${spread(seconds(blockedRuns))}; ratio ${ratio(blockedRuns)}x`,
);
console.log(
  `numpy bare products (blocks):     ${spread(seconds(matmulRuns))}; medbench / bare matmul ${ratio(matmulRuns)}x (target <= 1.3)`,
);
console.log(`best hit agrees with numpy on ${blockedRuns[0].first.length} checked queries: ${agree}`);
