// BERTScore's greedy matching (the scoring pass after the encoder): for each (output, reference)
// pair, the cosine of every token pair and the best match of each token. Synthetic token vectors
// of roberta-large's width (1,024; bert_score's default model for English), texts of 40–260
// tokens, 400 pairs. Side by side, three rounds:
//   - before: the implementation this replaced (two passes, each cosine computed twice), one thread;
//   - medbench in this thread (each cosine once) and on worker threads (`matchPairs`, the default);
//   - numpy: the same float64 arithmetic as a matrix product per pair (BLAS), in python3.
// medbench's F1s must equal the previous implementation's to the last bit, and numpy's to 1e-12.
// Usage: npm run build && node bench/bertscore-matching.js [pairs] [hidden]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchPairs } from '../dist/suites/clue/bertscore-pass.js';

const pairCount = Number(process.argv[2] ?? 400);
const hidden = Number(process.argv[3] ?? 1024);
const rounds = 3;
let seed = 3;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31 - 0.5;
};
const text = () => {
  const length = 40 + Math.floor((random() + 0.5) * 220);
  // As the local ONNX encoder gives them: one shared-memory block a text, a view a token.
  const block = new Float32Array(new SharedArrayBuffer((length + 2) * hidden * 4));
  for (let index = 0; index < block.length; index++) block[index] = random();
  return {
    vectors: Array.from({ length: length + 2 }, (_, row) => block.subarray(row * hidden, (row + 1) * hidden)),
    start: 1,
    end: length + 1,
  };
};
const pairs = Array.from({ length: pairCount }, () => [text(), text()]);
const products = pairs.reduce((sum, [a, b]) => sum + a.vectors.length * b.vectors.length * hidden, 0);

/** The implementation before this bench's change: two passes over unit vectors. */
function before(candidate, reference) {
  const unit = (vectors) =>
    vectors.map((vector) => {
      let sum = 0;
      for (let index = 0; index < vector.length; index++) sum += vector[index] * vector[index];
      const length = Math.sqrt(sum) || 1;
      return Float64Array.from(vector, (value) => value / length);
    });
  const left = unit(candidate.vectors);
  const right = unit(reference.vectors);
  const dot = (a, b) => {
    let sum = 0;
    for (let index = 0; index < a.length; index++) sum += a[index] * b[index];
    return sum;
  };
  const best = (from, start, end, to) => {
    let total = 0;
    for (let index = start; index < end; index++) {
      let max = Number.NEGATIVE_INFINITY;
      for (const other of to) max = Math.max(max, dot(from[index], other));
      total += max;
    }
    return total / (end - start);
  };
  const precision = best(left, candidate.start, candidate.end, right);
  const recall = best(right, reference.start, reference.end, left);
  return (2 * precision * recall) / (precision + recall);
}

const folder = mkdtempSync(join(tmpdir(), 'medbench-bertscore-'));
const flat = (vectors) => {
  const out = new Float32Array(vectors.length * hidden);
  vectors.forEach((vector, row) => {
    out.set(vector, row * hidden);
  });
  return out;
};
const buffers = [];
const layout = pairs.map(([a, b]) => {
  const entry = (side) => {
    buffers.push(Buffer.from(flat(side.vectors).buffer));
    return [side.vectors.length, side.start, side.end];
  };
  return [entry(a), entry(b)];
});
writeFileSync(join(folder, 'vectors.f32'), Buffer.concat(buffers));
writeFileSync(join(folder, 'layout.json'), JSON.stringify({ hidden, layout }));
const python = `
import json, sys, time, numpy as np
folder = sys.argv[1]
meta = json.load(open(folder + '/layout.json'))
data = np.fromfile(folder + '/vectors.f32', dtype=np.float32)
hidden = meta['hidden']
sides, at = [], 0
for pair in meta['layout']:
    for rows, start, end in pair:
        sides.append((data[at:at + rows * hidden].reshape(rows, hidden).astype(np.float64), start, end))
        at += rows * hidden
started = time.perf_counter()
f1s = []
for index in range(0, len(sides), 2):
    (a, a0, a1), (b, b0, b1) = sides[index], sides[index + 1]
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    similarity = a @ b.T
    precision = similarity[a0:a1].max(axis=1).mean()
    recall = similarity[:, b0:b1].max(axis=0).mean()
    f1s.append(2 * precision * recall / (precision + recall))
print(json.dumps({'seconds': time.perf_counter() - started, 'f1s': f1s}))
`;

const spread = (values, digits = 2) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(digits)} / ${sorted.at(-1).toFixed(digits)}`;
};
const seconds = async (run) => {
  const started = performance.now();
  const value = await run();
  return { seconds: (performance.now() - started) / 1000, value };
};

try {
  console.log(
    `${pairCount} pairs, ${hidden} dims, ${(products / 1e9).toFixed(2)} G token-pair products (one pass)`,
  );
  const times = { before: [], here: [], workers: [], numpy: [] };
  let checks = '';
  for (let round = 0; round < rounds; round++) {
    const old = await seconds(() => pairs.map(([a, b]) => before(a, b)));
    const here = await seconds(() => matchPairs(pairs, { parallelMinProducts: Number.POSITIVE_INFINITY }));
    let path;
    const workers = await seconds(() => matchPairs(pairs, { onPath: (chosen) => (path = chosen) }));
    const numpy = JSON.parse(execFileSync('python3', ['-c', python, folder], { encoding: 'utf8' }));
    times.before.push(old.seconds);
    times.here.push(here.seconds);
    times.workers.push(workers.seconds);
    times.numpy.push(numpy.seconds);
    const same = (values) => values.every((value, index) => value === old.value[index]);
    const numpyDiff = Math.max(...numpy.f1s.map((value, index) => Math.abs(value - workers.value[index])));
    checks = `path ${path}; equal to the previous implementation to the bit: this thread ${same([...here.value])}, workers ${same([...workers.value])}; largest difference from numpy ${numpyDiff.toExponential(1)}`;
    console.log(
      `round ${round + 1}: before ${old.seconds.toFixed(2)} s, this thread ${here.seconds.toFixed(2)} s, workers ${workers.seconds.toFixed(2)} s, numpy ${numpy.seconds.toFixed(2)} s`,
    );
  }
  const ratio = (top, bottom) => top.map((value, index) => value / bottom[index]);
  console.log(checks);
  console.log(
    `speed-up over the previous implementation, workers: ${spread(ratio(times.before, times.workers))}× (this thread ${spread(ratio(times.before, times.here))}×)`,
  );
  console.log(`workers against this thread: ${spread(ratio(times.here, times.workers))}×`);
  console.log(`medbench (workers) / numpy time: ${spread(ratio(times.workers, times.numpy))}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
