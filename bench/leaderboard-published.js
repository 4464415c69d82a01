// The leaderboard of the full published MedOdyssey import (ten models, 20,320 outputs), as the
// viewer answers it: `import medodyssey-outputs` saves the board, and a viewer started afterwards
// answers from it. Reference in the same run: the board computed from every result row (what the
// viewer did before, and does for a store whose runs changed since). Target: under 200 ms.
// Usage: npm run build && node bench/leaderboard-published.js <shared/data/medodyssey> [repeats]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUITES } from '../dist/compose/suites.js';
import { Store } from '../dist/store/store.js';
import { medodysseySuite } from '../dist/suites/medodyssey/suite.js';
import { startViewServer } from '../dist/view/view-server.js';

const release = process.argv[2] ?? join(process.env.MEDBENCH_SHARED_DATA ?? '../shared/data', 'medodyssey');
const repeats = Number(process.argv[3] ?? 5);
const home = mkdtempSync(join(tmpdir(), 'medbench-leaderboard-bench-'));
execFileSync(process.execPath, ['bin/medbench.js', '--home', home, 'import', 'medodyssey-outputs', release], {
  stdio: 'ignore',
});
const path = join(home, 'medbench.sqlite');

const served = [];
const computed = [];
for (let round = 0; round < repeats; round++) {
  // A fresh viewer each time: its first leaderboard request, as a user opening the page meets it.
  const store = new Store(path, { readonly: true });
  const viewer = await startViewServer({ store, suites: SUITES, host: '127.0.0.1', port: 0 });
  let begin = performance.now();
  const response = await fetch(new URL('api/leaderboard?suite=medodyssey', viewer.url));
  const board = await response.json();
  served.push(performance.now() - begin);
  await viewer.close();
  if (board.rows.length !== 10) throw new Error(`expected 10 rows, got ${board.rows.length}`);
  // The reference: the same board computed from every result row (nothing saved is read).
  begin = performance.now();
  const fresh = medodysseySuite.leaderboard(
    store.listRuns({ suite: 'medodyssey' }).map((run) => ({ run, results: store.aggregateRows(run.id) })),
  );
  computed.push(performance.now() - begin);
  if (JSON.stringify(fresh.rows) !== JSON.stringify(board.rows)) throw new Error('the saved board differs');
  store.close();
}
rmSync(home, { recursive: true, force: true });
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) };
};
const show = (name, values) => {
  const { min, median, max } = stats(values);
  console.log(
    `${name.padEnd(44)} min ${min.toFixed(1)} ms  median ${median.toFixed(1)} ms  max ${max.toFixed(1)} ms`,
  );
};
show('viewer leaderboard, first request (saved)', served);
show('computed from every result row (reference)', computed);
const ratio = stats(served).median / stats(computed).median;
console.log(
  `saved / computed = ${ratio.toFixed(3)} (median); target under 200 ms: ${stats(served).max < 200 ? 'met' : 'NOT met'}; the saved board equals the computed one.`,
);
