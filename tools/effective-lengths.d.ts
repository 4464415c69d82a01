/** Types of tools/effective-lengths.js, for the test that checks docs/medodyssey-release.md against it. */
export const DOC: string;
export const MARKERS: [string, string];
/** `report --suite medodyssey --json` of a home: the fields the tables read (the report's JSON). */
export interface ReleaseReport {
  effectiveLength: { threshold: number; fraction: number };
  runs: Array<{ label: string; effectiveLengths: unknown[] } & Record<string, unknown>>;
}
export function releaseReport(home: string): ReleaseReport;
export function effectiveLengthTables(report: ReleaseReport): string;
export function documentedTables(text?: string): string;
