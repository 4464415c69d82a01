import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  documentedTable,
  importRelease,
  neighbourPairs,
  neighbourTable,
} from '../../tools/neighbour-pairs.js';
import { publishedRelease } from '../support/published-release.js';

/**
 * docs/statistics.md's table of the ten published models' neighbouring pairs is what the built
 * `medbench compare` prints on the imported release (tools/neighbour-pairs.js runs it per pair).
 * Needs MEDBENCH_SHARED_DATA=<shared/data>.
 */
const release = publishedRelease('statistics-doc.test.ts', 'check the table of docs/statistics.md');
const available = release !== undefined;
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
