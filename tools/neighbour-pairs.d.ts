/** Types of tools/neighbour-pairs.js, for the test that checks docs/statistics.md against it. */
export interface NeighbourRow {
  dataset: string;
  ranked: Array<{ label: string; score: number }>;
  pairs: Array<{ upper: string; lower: string; task: unknown; different: boolean }>;
}
export const DOC: string;
export const MARKERS: [string, string];
export function importRelease(release: string): string;
export function neighbourPairs(home: string): NeighbourRow[];
export function neighbourTable(rows: readonly NeighbourRow[]): string;
export function documentedTable(text?: string): string;
