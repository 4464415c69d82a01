import { resolve } from 'node:path';
import { resolveHome, storePathIn } from '../../compose/home.js';
import type { SuiteLogFormat } from '../../compose/log-formats.js';
import type { CommandOutput } from '../../core/command-output.js';
import { Store } from '../../store/store.js';

export interface ExportSuiteLogsOptions {
  home?: string;
  out: string;
  run?: string[];
  model?: string[];
}

/** `medbench export logs` in a suite's own format (MedEureka's `mteb`): the files' paths on stdout. */
export function exportSuiteLogsCommand(
  options: ExportSuiteLogsOptions,
  format: SuiteLogFormat,
  output: CommandOutput,
): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const folder = resolve(options.out);
    const files = format.write({
      store,
      folder,
      filter: {
        ...(options.run ? { runIds: options.run } : {}),
        ...(options.model ? { labels: options.model } : {}),
      },
    });
    output.stdout(files.map((file) => `${file}\n`).join(''));
    output.stderr(`Wrote ${files.length} ${format.name} files to ${folder}.\n`);
  } finally {
    store.close();
  }
}
