import type { ReportTable } from '../../core/suite.js';
import { LANGUAGES } from './constants.js';
import { controlTables } from './control-tables.js';
import { effectiveLengthReportTable } from './effective-length-text.js';
import { medicalByLevelTable } from './medical-by-level-text.js';
import { intervalsReportTable } from './medodyssey-intervals-text.js';
import { MEDODYSSEY_METRICS } from './medodyssey-labels.js';
import type { MedOdysseyReport } from './medodyssey-report.js';
import {
  ablationTable,
  BY_LEVEL_TABLES,
  countingReportTable,
  medicalTableRows,
  niahErrorTable,
  niahReportTable,
} from './medodyssey-text.js';

/** Only the table's own fields (the builders add what the text prints beside it). */
const tableOf = ({ name, title, header, rows }: ReportTable): ReportTable => ({ name, title, header, rows });

/** The tables of the text report, in its order: Tables A2/A3, 3, 2/A4, Figures 6, 5 and A4, the NIAH error analysis. */
export function medodysseyReportTables(
  report: MedOdysseyReport,
  metrics: readonly string[] = MEDODYSSEY_METRICS,
): ReportTable[] {
  const tables: Array<ReportTable | undefined> = [];
  for (const metric of metrics) {
    for (const language of LANGUAGES) tables.push(niahReportTable(report, language, metric));
    tables.push(countingReportTable(report, metric));
  }
  for (const metric of metrics) {
    const medical = medicalTableRows(report, metric);
    tables.push(medical && { name: `medical-${metric}`, ...medical });
  }
  tables.push(ablationTable(report));
  for (const [key, title, metric, name] of BY_LEVEL_TABLES) {
    const byLevel = metrics.includes(metric) ? medicalByLevelTable(report, key) : undefined;
    tables.push(byLevel && { name, title, ...byLevel });
  }
  for (const metric of metrics) tables.push(niahErrorTable(report, metric));
  tables.push(effectiveLengthReportTable(report));
  tables.push(intervalsReportTable(report), ...controlTables(report));
  return tables.filter((table) => table !== undefined).map(tableOf);
}
