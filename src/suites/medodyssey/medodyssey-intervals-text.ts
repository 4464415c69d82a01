import type { ReportTable } from '../../core/suite.js';
import { intervalsLegend, intervalText } from '../../report/interval-text.js';
import { TEN_DATASETS } from './aggregate.js';
import type { MedOdysseyReport } from './medodyssey-report.js';

/**
 * Figure 2's ten main ESM scores (×100) of each run with their 95% intervals: the summary a
 * reader compares models by. Absent when the report computed no intervals (`--no-intervals`).
 */
export function intervalsReportTable(report: MedOdysseyReport): ReportTable | undefined {
  const runs = report.runs.filter((run) => run.overviewIntervals);
  if (runs.length === 0) return undefined;
  const datasets = TEN_DATASETS.filter((name) => runs.some((run) => run.overview[name] !== null));
  const legend = intervalsLegend(
    runs.flatMap((run) => Object.values(run.overviewIntervals!)),
    'over samples, NIAH clustered by needle; KG and Table: micro F1 by the bootstrap',
  );
  return {
    name: 'intervals-esm',
    title: `Main ESM score ×100 with its 95% interval (Figure 2's datasets). ${legend}`,
    header: ['Model', ...datasets],
    rows: runs.map((run) => [
      run.label,
      ...datasets.map((name) => intervalText(run.overview[name], run.overviewIntervals![name])),
    ]),
  };
}
