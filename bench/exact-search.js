// Exact top-500 search: 10,000 queries against 100,000 corpus vectors of 768 dimensions
// (normalised, random), medbench's exactSearch (onnxruntime Gemm + TopK, blocks of queries)
// against numpy in the same run: the one-product form and a blocked form. Prints wall times,
// the ratios (target: medbench <= 0.5 x numpy) and whether the best hits agree.
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

const started = performance.now();
const rankings = await exactSearch({ queries: queryMatrix, corpus: corpusMatrix, dimensions, topK: k });
const medbenchSeconds = (performance.now() - started) / 1000;
const memory = process.memoryUsage().rss / 2 ** 20;

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
const blocked = numpy('blocked');
const oneProduct = numpy('one-product');
rmSync(folder, { recursive: true, force: true });
const agree = blocked.first.every((index, row) => rankings[row].indexes[0] === index);
console.log(`exact top-${k}: ${queries} queries x ${corpusSize} corpus x ${dimensions} dims`);
console.log(`medbench (onnxruntime, blocked): ${medbenchSeconds.toFixed(2)} s, rss ${memory.toFixed(0)} MiB`);
console.log(
  `numpy one product:                ${oneProduct.seconds.toFixed(2)} s  ratio ${(medbenchSeconds / oneProduct.seconds).toFixed(2)}x (target <= 0.5)`,
);
console.log(
  `numpy blocks of 1,000 queries:    ${blocked.seconds.toFixed(2)} s  ratio ${(medbenchSeconds / blocked.seconds).toFixed(2)}x`,
);
console.log(`best hit agrees with numpy on ${blocked.first.length} checked queries: ${agree}`);
