import { join, resolve } from 'node:path';
import type { Suite, SuiteReportOptions } from '../core/suite.js';
import { renderCsv } from '../report/csv.js';
import { type TaskUsage, usageReportTable } from '../report/usage-table.js';
import { writeOutputFile } from './output-file.js';

/**
 * `report --csv <folder>`: each table the text report shows (the suite's, then tokens and cost)
 * as `<suite>-<table>.csv` in the folder (created if missing), cells as the text shows them.
 * Returns the files' paths, in the report's order.
 */
export function writeReportCsv(options: {
  folder: string;
  suite: Suite;
  report: unknown;
  reportOptions: SuiteReportOptions;
  usage: readonly TaskUsage[];
}): string[] {
  const { suite } = options;
  const usage = usageReportTable(options.usage);
  const tables = [...suite.tables(options.report, options.reportOptions), ...(usage ? [usage] : [])];
  return tables.map((table) => {
    const path = join(resolve(options.folder), `${suite.name}-${table.name}.csv`);
    writeOutputFile(path, renderCsv(table.header, table.rows));
    return path;
  });
}
