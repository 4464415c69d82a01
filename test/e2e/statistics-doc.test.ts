import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  documentedTable,
  importRelease,
  neighbourPairs,
  neighbourTable,
} from '../../tools/neighbour-pairs.js';

/**
 * docs/statistics.md's table of the ten published models' neighbouring pairs is what the built
 * `medbench compare` prints on the imported release (tools/neighbour-pairs.js runs it per pair).
 * Needs MEDBENCH_SHARED_DATA=<shared/data>.
 */
const shared = process.env.MEDBENCH_SHARED_DATA;
const release = shared ? join(shared, 'medodyssey') : undefined;
const available = release !== undefined && existsSync(join(release, 'evaluation_result'));
if (!available)
  console.warn(
    'SKIPPED statistics-doc.test.ts: set MEDBENCH_SHARED_DATA to the shared data folder (holding medodyssey/) to check the table of docs/statistics.md.',
  );
let home: string | undefined;
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!available)("docs/statistics.md's table of neighbouring pairs", () => {
  it('equals what compare --json gives on every neighbouring pair of the published ranking', () => {
    home = importRelease(release!);
    const rows = neighbourPairs(home);
    expect(rows.map((row) => row.dataset)).toContain('En.NIAH');
    expect(rows.every((row) => row.pairs.length === 9)).toBe(true);
    expect(documentedTable()).toBe(neighbourTable(rows));
  }, 300_000);
});
