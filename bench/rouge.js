// ROUGE-1/2/L throughput over 10,000 prediction/reference pairs of MeDiSumQA-like length
// (~40 words each), against a straightforward Python implementation in the same run.
// Prints both throughputs, the speed ratio (target >= 3) and checks the means agree.
// Usage: npm run build && node bench/rouge.js [pairs]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { rouge } from '../dist/metrics/rouge.js';

const count = Number(process.argv[2] ?? 10000);
const vocabulary =
  'patient discharged stable condition blood pressure heart rate medication dose daily twice follow up clinic weeks pain chest shortness breath fever infection antibiotics kidney function creatinine glucose insulin diabetes hypertension surgery wound care physical therapy diet sodium fluid weight scan results normal abnormal cardiology referral symptoms return emergency'.split(
    ' ',
  );
let state = 42;
const next = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296;
};
const sentence = (words) =>
  `${Array.from({ length: words }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ')}.`;
const pairs = Array.from({ length: count }, () => [
  sentence(35 + Math.floor(next() * 10)),
  sentence(35 + Math.floor(next() * 10)),
]);

const started = performance.now();
const totals = [0, 0, 0];
for (const [prediction, reference] of pairs) {
  const scores = rouge(prediction, reference);
  totals[0] += scores.rouge1.f;
  totals[1] += scores.rouge2.f;
  totals[2] += scores.rougeL.f;
}
const seconds = (performance.now() - started) / 1000;
const python = JSON.parse(
  execFileSync('python3', [join(import.meta.dirname, 'rouge-python-reference.py')], {
    input: JSON.stringify(pairs),
    maxBuffer: 1 << 26,
  }).toString(),
);
const means = totals.map((total) => total / count);
const agree = means.every((value, index) => Math.abs(value - python.means[index]) < 1e-12);
console.log(
  `pairs ${count}; medbench ${(count / seconds).toFixed(0)} pairs/s (${seconds.toFixed(2)} s); Python reference ${(count / python.seconds).toFixed(0)} pairs/s (${python.seconds.toFixed(2)} s)`,
);
console.log(`speed ratio medbench / Python: ${(python.seconds / seconds).toFixed(1)}× (target >= 3)`);
console.log(
  `mean R-1/R-2/R-L ${means.map((value) => (100 * value).toFixed(4)).join(' / ')}; same as the Python reference: ${agree}`,
);
