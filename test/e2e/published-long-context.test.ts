import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRelease } from '../../tools/doc-section.js';
import { documentedTables, effectiveLengthTables, releaseReport } from '../../tools/effective-lengths.js';
import { publishedRelease } from '../support/published-release.js';

/**
 * The published release, imported once by the built CLI and reported once (`report --json`), holds:
 * docs/medodyssey-release.md's effective-length tables (tools/effective-lengths.js), and the NIAH
 * error analysis by needle type (Section 4.3), against counts made without medbench
 * (tools/niah-ssm-errors.py → test/fixtures/medodyssey/niah-ssm-errors.json).
 * Needs MEDBENCH_SHARED_DATA=<shared/data>.
 */
const release = publishedRelease(
  'published-long-context.test.ts',
  'check the effective lengths and NIAH error analysis of the release',
);
const available = release !== undefined;

type ErrorTally = { correct: number; counted: number; errors: number };
interface ReleaseRun {
  label: string;
  modelId: string;
  niahErrors: Record<string, Record<string, { errors: number; byNeedleType: Record<string, ErrorTally> }>>;
}

let home: string | undefined;
let report: { runs: ReleaseRun[]; effectiveLength: { threshold: number; fraction: number } };
beforeAll(() => {
  if (!available) return;
  home = importRelease(release!);
  report = releaseReport(home) as unknown as typeof report;
}, 300_000);
afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!available)('the published release: long-context analyses', () => {
  it("docs/medodyssey-release.md's effective lengths are what the report gives on the release", () => {
    expect(report.runs).toHaveLength(10);
    expect(documentedTables()).toBe(
      effectiveLengthTables(report as unknown as Parameters<typeof effectiveLengthTables>[0]),
    );
  });

  it('NIAH errors by needle type (SSM) equal the counts made from the files without medbench, model by model', () => {
    const expected: Record<string, Record<string, { errors: number; counted: number }>> = JSON.parse(
      readFileSync(join(import.meta.dirname, '../fixtures/medodyssey/niah-ssm-errors.json'), 'utf8'),
    );
    const found: typeof expected = {};
    for (const run of report.runs)
      for (const language of ['en', 'zh']) {
        const byType = run.niahErrors[language]!.ssm!.byNeedleType;
        found[`${language} ${run.modelId}`] = Object.fromEntries(
          Object.entries(byType).map(([type, tally]) => [
            type,
            { errors: tally.errors, counted: tally.counted },
          ]),
        );
      }
    expect(found).toEqual(expected);
  });

  it("docs/scoring.md's totals over the ten models: general 1,476 against medical 1,177 (SSM), 4,640 against 4,789 (ESM)", () => {
    const total = (metric: string, type: string) =>
      report.runs.reduce(
        (sum, run) =>
          sum +
          ['en', 'zh'].reduce(
            (inner, language) => inner + run.niahErrors[language]![metric]!.byNeedleType[type]!.errors,
            0,
          ),
        0,
      );
    expect([total('ssm', 'general'), total('ssm', 'med')]).toEqual([1476, 1177]);
    expect([total('esm', 'general'), total('esm', 'med')]).toEqual([4640, 4789]);
    // The paper's "approximately 6:5" (SSM): 1.25.
    expect((total('ssm', 'general') / total('ssm', 'med')).toFixed(2)).toBe('1.25');
  });
});
