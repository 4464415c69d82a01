import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUITES } from '../../src/compose/suites.js';
import { Store } from '../../src/store/store.js';
import { ViewData } from '../../src/view/view-data.js';
import { runCli, temporaryHome } from './cli.js';

/**
 * The viewer's run pages against `report --json` for the ten published models: every NIAH figure
 * (the whole-grid score, each length × depth cell, "—" for levels beyond the window) is the
 * report's. Needs MEDBENCH_SHARED_DATA=<shared/data>.
 */
const shared = process.env.MEDBENCH_SHARED_DATA;
const release = shared ? join(shared, 'medodyssey') : undefined;
const available = release !== undefined && existsSync(join(release, 'evaluation_result'));

interface Tally {
  correct: number;
  counted: number;
}
interface NiahJson {
  levels: number[];
  depths: number[];
  cells: Record<string, Record<string, Tally | null>>;
  all: Tally;
}
interface RunJson {
  runId: string;
  label: string;
  niah: Record<string, Record<string, NiahJson>>;
}

const home = temporaryHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe.runIf(available)('viewer figures are the report’s (ten published models)', () => {
  let report: { runs: RunJson[] };
  beforeAll(async () => {
    expect((await runCli(['--home', home, 'import', 'medodyssey-outputs', release!])).code).toBe(0);
    report = JSON.parse((await runCli(['--home', home, 'report', '--json'])).stdout);
  }, 120_000);

  it('every NIAH run-page figure equals report --json, levels beyond the window shown as —', () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    let cells = 0;
    let beyond = 0;
    try {
      const view = new ViewData(store, SUITES);
      expect(report.runs).toHaveLength(10);
      for (const run of report.runs) {
        const page = view.runSummary(run.runId)!;
        for (const [language, byMetric] of Object.entries(run.niah)) {
          const group = page.groups.find((entry) => entry.group === `niah-${language}`)!;
          for (const [metric, table] of Object.entries(byMetric)) {
            const where = `${run.label} niah-${language} ${metric}`;
            expect(group.metrics[metric]!.mean * table.all.counted, where).toBeCloseTo(table.all.correct, 6);
            expect(group.metrics[metric]!.n, where).toBe(table.all.counted);
            if (metric !== group.primary) continue;
            for (const depth of table.depths)
              for (const level of table.levels) {
                const tally = table.cells[depth]![level];
                const cell = group.grid!.cells[`${depth}|${level}`];
                if (!tally) {
                  expect(cell, `${where} ${depth}|${level}`).toBeUndefined();
                  beyond++;
                } else {
                  expect(cell!.mean * tally.counted, `${where} ${depth}|${level}`).toBeCloseTo(
                    tally.correct,
                    6,
                  );
                  cells++;
                }
              }
          }
        }
      }
    } finally {
      store.close();
    }
    console.log(`${cells} NIAH cells equal the report's; ${beyond} beyond a model's window shown as —.`);
    expect(cells).toBeGreaterThan(500);
    expect(beyond).toBeGreaterThan(0);
  });
});
