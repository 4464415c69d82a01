import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUITES } from '../../src/compose/suites.js';
import { Store } from '../../src/store/store.js';
import { METRIC_NAMES } from '../../src/suites/medodyssey/medodyssey-labels.js';
import { unpackRows } from '../../src/view/shared/packed-rows.js';
import {
  comparisonFrom,
  openRunFile,
  sampleFrom,
  sampleListFrom,
} from '../../src/view/shared/run-file-payloads.js';
import { runKey } from '../../src/view/shared/static-files.js';
import type { RunFile, SampleRow } from '../../src/view/shared/view-types.js';
import { writeStaticSite } from '../../src/view/static-site.js';
import { ViewData } from '../../src/view/view-data.js';
import { publishedRelease } from '../support/published-release.js';
import { staticPayloadText } from '../support/static-payload.js';
import { runCli, temporaryHome } from './cli.js';

/**
 * The viewer's run pages against `report --json` for the ten published models: every NIAH figure
 * (the whole-grid score, each length × depth cell, "—" for levels beyond the window) is the
 * report's. Needs MEDBENCH_SHARED_DATA=<shared/data>.
 */
const release = publishedRelease('viewer-numbers.test.ts', "check the viewer's figures against the report's");
const available = release !== undefined;

interface Tally {
  correct: number;
  counted: number;
  /** The report's 95% interval of correct / counted. */
  interval?: { units: number; method: string };
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
  counting: Record<string, Record<string, { all: Tally }>>;
  overview: Record<string, number | null>;
  effectiveLengths: Array<{
    task: string;
    language: string;
    fixed: { length: number | null; interval: { lower: number | null; upper: number | null } | null };
    relative: { threshold: number | null; length: number | null };
  }>;
  medical: Record<
    string,
    Record<string, { precision?: number; recall?: number; f1?: number; tp?: number; accuracy?: number }>
  >;
}

/** The report's intervals of Figures 5/A4, own-rule cells and the NIAH error analysis (×100). */
interface IntervalJson {
  medicalByLevelIntervals: Record<string, Record<string, { lower: number; upper: number }>>;
  medicalByLevelSsmIntervals: Record<string, Record<string, { lower: number; upper: number }>>;
  medical: Record<
    string,
    Record<string, { own?: { intervals?: Record<string, { lower: number; upper: number }> } }>
  >;
  niahErrorIntervals: Record<
    string,
    Record<
      string,
      Record<'errors', { lower: number; upper: number }> &
        Record<'byNeedleType' | 'byDepth', Record<string, { lower: number; upper: number }>>
    >
  >;
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
            expect(group.metrics[metric]!.estimate * table.all.counted, where).toBeCloseTo(
              table.all.correct,
              6,
            );
            expect(group.metrics[metric]!.n, where).toBe(table.all.counted);
            // The run page's interval clusters as the report's does: by needle, the same method.
            expect(group.metrics[metric]!.units, where).toBe(table.all.interval!.units);
            expect(group.metrics[metric]!.method, where).toBe(table.all.interval!.method);
            if (metric !== group.primary) continue;
            for (const depth of table.depths)
              for (const level of table.levels) {
                const tally = table.cells[depth]![level];
                const cell = group.grid!.cells[`${depth}|${level}`];
                if (!tally) {
                  expect(cell, `${where} ${depth}|${level}`).toBeUndefined();
                  beyond++;
                } else {
                  expect(cell!.estimate * tally.counted, `${where} ${depth}|${level}`).toBeCloseTo(
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

  it("Figures 5/A4 per level, the cells under medbench's own rules and the NIAH error analysis: a run page's intervals are the report's", () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    const counts = { levels: 0, own: 0, errors: 0 };
    type Bounds = { lower: number; upper: number };
    try {
      const view = new ViewData(store, SUITES);
      for (const run of report.runs as unknown as Array<RunJson & IntervalJson>) {
        const page = view.runSummary(run.runId)!;
        const interval = (group: string, name: string) => {
          const figure = page.groups
            .find((entry) => entry.group === group)
            ?.figures.find((item) => item.name === name);
          expect(figure, `${run.label} ${group} ${name}`).toBeDefined();
          return figure!.interval;
        };
        const bounds = ({ lower, upper }: Bounds) => ({ lower, upper });
        for (const [metric, byDataset] of [
          ['esm', run.medicalByLevelIntervals],
          ['ssm', run.medicalByLevelSsmIntervals],
        ] as const)
          for (const [dataset, byLevel] of Object.entries(byDataset)) {
            const statistic = run.medical[dataset]![metric]!.f1 !== undefined ? 'micro F1' : 'accuracy';
            for (const [level, expected] of Object.entries(byLevel)) {
              expect(interval(dataset, `${METRIC_NAMES[metric]}: ${statistic}, level ${level}`)).toEqual(
                bounds(expected),
              );
              counts.levels++;
            }
          }
        for (const [dataset, byMetric] of Object.entries(run.medical))
          for (const [metric, cell] of Object.entries(byMetric) as Array<
            [string, IntervalJson['medical'][string][string]]
          >)
            for (const [statistic, expected] of Object.entries(cell.own?.intervals ?? {})) {
              const name =
                statistic === 'f1'
                  ? 'micro F1'
                  : statistic === 'accuracy'
                    ? 'accuracy'
                    : `micro ${statistic}`;
              expect(interval(dataset, `${METRIC_NAMES[metric]}, medbench's own rules: ${name}`)).toEqual(
                bounds(expected),
              );
              counts.own++;
            }
        for (const [language, byMetric] of Object.entries(run.niahErrorIntervals))
          for (const [metric, expected] of Object.entries(byMetric)) {
            const name = `${METRIC_NAMES[metric]}: wrong answers`;
            expect(interval(`niah-${language}`, name)).toEqual(bounds(expected.errors));
            for (const [type, bound] of Object.entries(expected.byNeedleType))
              expect(interval(`niah-${language}`, `${name}, ${type} needles`)).toEqual(bounds(bound));
            for (const [depth, bound] of Object.entries(expected.byDepth))
              expect(interval(`niah-${language}`, `${name}, depth ${depth}%`)).toEqual(bounds(bound));
            counts.errors++;
          }
      }
    } finally {
      store.close();
    }
    console.log(`Intervals equal the report's: ${JSON.stringify(counts)}.`);
    expect(counts.levels).toBeGreaterThan(100);
    expect(counts.errors).toBe(40);
  });

  it("every Counting and medical-task figure and effective length of a run page is the report's (KG and Table: micro P/R/F1)", () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    let compared = 0;
    let lengths = 0;
    try {
      const view = new ViewData(store, SUITES);
      for (const run of report.runs) {
        const page = view.runSummary(run.runId)!;
        const figure = (group: string, name: string) =>
          page.groups.find((entry) => entry.group === group)?.figures.find((item) => item.name === name)
            ?.value;
        for (const [language, byMetric] of Object.entries(run.counting))
          for (const [metric, table] of Object.entries(byMetric)) {
            const name = `${metric === 'esm' ? 'ESM' : 'SSM'}`;
            const value = page.groups
              .find((entry) => entry.group === `counting-${language}`)!
              .figures.find((item) => item.name.startsWith(name))!.value!;
            expect(value * table.all.counted, `${run.label} counting-${language} ${metric}`).toBeCloseTo(
              100 * table.all.correct,
              6,
            );
            compared++;
          }
        for (const [dataset, byMetric] of Object.entries(run.medical))
          for (const [metric, cell] of Object.entries(byMetric)) {
            const prefix = page.groups
              .find((entry) => entry.group === dataset)!
              .figures.find((item) => item.name.toLowerCase().startsWith(metric))!
              .name.split(':')[0];
            const where = `${run.label} ${dataset} ${metric}`;
            if (cell.f1 !== undefined) {
              expect(figure(dataset, `${prefix}: micro precision`), where).toBeCloseTo(cell.precision!, 9);
              expect(figure(dataset, `${prefix}: micro recall`), where).toBeCloseTo(cell.recall!, 9);
              expect(figure(dataset, `${prefix}: micro F1`), where).toBeCloseTo(cell.f1, 9);
              expect(figure(dataset, `${prefix}: true positives`), where).toBe(cell.tp);
            } else expect(figure(dataset, `${prefix}: accuracy`), where).toBeCloseTo(cell.accuracy!, 9);
            compared++;
          }
        // The effective lengths (RULER's with its interval, NoLiMa's), as the report gives them.
        for (const row of run.effectiveLengths) {
          const figures = page.groups.find((entry) => entry.group === `${row.task}-${row.language}`)!.figures;
          const value = (start: string) => figures.find((item) => item.name.startsWith(start))?.value;
          const where = `${run.label} ${row.task}-${row.language}`;
          const ruler = 'Effective length, RULER (every level ≥ 85.6)';
          expect(value(`${ruler}, tokens`), where).toBe(row.fixed.length ?? 0);
          expect(value(`${ruler}, 95% interval lower`), where).toBe(row.fixed.interval!.lower ?? 0);
          expect(value(`${ruler}, 95% interval upper`), where).toBe(row.fixed.interval!.upper ?? 0);
          if (row.relative.threshold !== null)
            expect(value('Effective length, NoLiMa'), where).toBe(row.relative.length ?? 0);
          lengths++;
        }
      }
    } finally {
      store.close();
    }
    console.log(`${compared} Counting and medical-task figures equal the report's.`);
    expect(compared).toBeGreaterThan(100);
    // Ten models × nine datasets (no En.Counting was released).
    expect(lengths).toBe(90);
  });

  it("the leaderboard's ESM row of every run is the report's ten-dataset overview, — where it has none", () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    let compared = 0;
    try {
      const board = new ViewData(store, SUITES).leaderboard('medodyssey')!;
      for (const run of report.runs) {
        const row = board.rows.find((entry) => entry.runId === run.runId)!;
        for (const [column, value] of Object.entries(run.overview)) {
          const shown = row.values.esm![column];
          if (value === null) expect(shown, `${run.label} ${column}`).toBeNull();
          else expect(shown, `${run.label} ${column}`).toBeCloseTo(value, 9);
          compared++;
        }
      }
    } finally {
      store.close();
    }
    console.log(`${compared} leaderboard cells equal the report's overview.`);
    expect(compared).toBe(100);
  });

  it('the static site is small, and its page computes the server’s payloads from the run files', () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    const site = join(home, 'site');
    try {
      const written = writeStaticSite(store, site, SUITES);
      expect(written.files).toBeLessThan(200);
      expect(written.bytes).toBeLessThan(20_000_000);
      const server = new ViewData(store, SUITES, { hideEndpoints: true });
      const open = (runId: string) => {
        return openRunFile(
          JSON.parse(staticPayloadText(join(site, 'data', `${runKey(runId)}.js`))) as RunFile,
        );
      };
      const [first, second] = report.runs.map((run) => open(run.runId));
      for (const group of first!.summary.groups) {
        const filters = { status: 'ok', q: 'a' };
        const page = { offset: 0, limit: 100 };
        expect(sampleListFrom(first!, group.group, filters, page)).toEqual(
          server.sampleList(first!.summary.run.id, group.group, filters, page),
        );
        const id = sampleListFrom(first!, group.group, {}, page)!.rows[1]!.id;
        const { prompt: _a, promptStatus: _b, ...fromFile } = sampleFrom(first!, id, filters)!;
        const {
          prompt: _c,
          promptStatus: _d,
          ...fromServer
        } = server.sample(first!.summary.run.id, id, filters)!;
        expect(fromFile).toEqual(fromServer);
        expect(comparisonFrom(first!, second!, group.group)).toEqual(
          server.compare(first!.summary.run.id, second!.summary.run.id, group.group),
        );
      }
      console.log(
        `Static site of the ten published models: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB; lists, samples and comparisons of ${first!.summary.groups.length} groups equal the server's.`,
      );
    } finally {
      store.close();
    }
  });

  it("a comparison shows each run's report figures", () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const view = new ViewData(store, SUITES);
      const [a, b] = report.runs;
      for (const group of ['kg-en', 'table-zh', 'niah-en']) {
        const comparison = view.compare(a!.runId, b!.runId, group)!;
        const figures = (runId: string) =>
          view.runSummary(runId)!.groups.find((entry) => entry.group === group)!.figures;
        expect(comparison.figures).toEqual({ a: figures(a!.runId), b: figures(b!.runId) });
        expect(comparison.figures.a.length).toBeGreaterThan(0);
      }
    } finally {
      store.close();
    }
  });

  it("a sample page's explanation agrees with its stored scores on every published output", () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    let explained = 0;
    try {
      const view = new ViewData(store, SUITES);
      for (const run of report.runs)
        for (const row of unpackRows<SampleRow>(view.runFile(run.runId)!.rows)) {
          const matched = row.explanation?.matched;
          if (!matched || !('esm' in row.scores)) continue;
          // A metric scored 1 names the answer that matched; a metric scored 0 names none.
          for (const metric of ['esm', 'ssm'])
            expect(matched[metric] !== undefined, `${run.label} ${row.id} ${metric}`).toBe(
              row.scores[metric] === 1,
            );
          explained++;
        }
    } finally {
      store.close();
    }
    console.log(`${explained} published outputs explained in agreement with their scores.`);
    expect(explained).toBeGreaterThan(10_000);
  });
});
