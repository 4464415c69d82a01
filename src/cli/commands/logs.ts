import { resolve } from 'node:path';
import { importEeeLogs } from '../../compose/eee-import.js';
import { type ExportedLogs, exportLogs, type LogFormat } from '../../compose/export-logs.js';
import { resolveHome, storePathIn } from '../../compose/home.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import type { Suite } from '../../core/suite.js';
import { Store } from '../../store/store.js';
import { VERSION } from '../../version.js';

export interface ExportLogsCommandOptions {
  format: LogFormat;
  out: string;
  suite?: string;
  run?: string[];
  restricted?: boolean;
  home?: string;
}

/** `medbench export logs`: the stored runs as standard logs in a folder, restricted text withheld. */
export function exportLogsCommand(
  options: ExportLogsCommandOptions,
  context: { output: CommandOutput; suites: readonly Suite[] },
): ExportedLogs {
  if (options.suite && !context.suites.some((suite) => suite.name === options.suite))
    throw new MedbenchError({
      code: 'USAGE',
      message: `--suite ${options.suite}: ${context.suites.map((suite) => suite.name).join(', ')}.`,
    });
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const folder = resolve(options.out);
    const written = exportLogs(store, {
      format: options.format,
      folder,
      version: VERSION,
      selection: {
        suites: context.suites,
        ...(options.suite ? { suite: options.suite } : {}),
        ...(options.run ? { runIds: options.run } : {}),
        ...(options.restricted ? { restricted: true } : {}),
      },
    });
    const withheld =
      written.withheld > 0 ? `; the text of ${written.withheld} results was withheld (restricted data)` : '';
    context.output.stderr(
      `Wrote ${written.files.length} files of ${written.runs} runs to ${folder}${withheld}.\n`,
    );
    return written;
  } finally {
    store.close();
  }
}

/** `medbench import logs`: Every Eval Ever records medbench exported, read back into the store. */
export function importLogsCommand(
  path: string,
  options: { format: 'eee'; home?: string },
  context: { output: CommandOutput; suites: readonly Suite[] },
): void {
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    for (const { run, results } of importEeeLogs(store, path, context.suites))
      context.output.stderr(`Imported run ${run.id} (${run.suite}, ${run.label}): ${results} results.\n`);
  } finally {
    store.close();
  }
}
