// Importing the whole official MedOdyssey release (ten models' evaluation_result/: 92 files,
// 20,320 outputs, 56 MB): `medbench import medodyssey-outputs` into a fresh store, as a whole
// process, against merely reading the same files with Python's json module (every line
// json.loads'ed), in turn, three times each. Prints every time, min/median/max and the ratio
// (target: the import under 5 s).
// Usage: npm run build && node bench/import-published.js [release folder]
//        (default: $MEDBENCH_SHARED_DATA/medodyssey)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const release =
  process.argv[2] ??
  (process.env.MEDBENCH_SHARED_DATA ? join(process.env.MEDBENCH_SHARED_DATA, 'medodyssey') : '');
if (!release || !existsSync(join(release, 'evaluation_result'))) {
  console.error('Give the release folder holding evaluation_result/ (or set MEDBENCH_SHARED_DATA).');
  process.exit(2);
}
const bin = join(import.meta.dirname, '..', 'bin', 'medbench.js');
const python = `
import glob, json, os, sys
count = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], 'evaluation_result', '*', '*.jsonl'))):
    with open(path, encoding='utf-8') as handle:
        for line in handle:
            if line.strip():
                json.loads(line)
                count += 1
print(count)
`;

const time = (run) => {
  const started = process.hrtime.bigint();
  const output = run();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, output };
};
const medbench = () =>
  time(() => {
    const home = mkdtempSync(join(tmpdir(), 'medbench-bench-import-'));
    try {
      return execFileSync(process.execPath, [bin, '--home', home, 'import', 'medodyssey-outputs', release], {
        encoding: 'utf8',
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
const reference = () => time(() => execFileSync('python3', ['-c', python, release], { encoding: 'utf8' }));

const spread = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `min ${sorted[0].toFixed(2)} / median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} / max ${sorted.at(-1).toFixed(2)}`;
};
const ours = [];
const theirs = [];
let lines = '';
for (let repeat = 0; repeat < 3; repeat++) {
  const a = medbench();
  const b = reference();
  ours.push(a.seconds);
  theirs.push(b.seconds);
  lines = b.output.trim();
  if (!/Read \d+ published outputs from \d+ files/.test(a.output)) throw new Error(a.output);
  console.log(
    `repeat ${repeat + 1}: medbench import ${a.seconds.toFixed(2)} s, Python json read ${b.seconds.toFixed(2)} s`,
  );
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}`);
console.log(
  `${lines} lines. medbench import (parse, re-score twice, store in one transaction): ${spread(ours)} s`,
);
console.log(`Python json.loads of every line (no scoring, no store): ${spread(theirs)} s`);
console.log(
  `ratio medbench / Python (medians): ${(median(ours) / median(theirs)).toFixed(2)}; target: import under 5 s — ${median(ours) < 5 ? 'met' : 'NOT met'}`,
);
