import { resolve } from 'node:path';
import { resolveHome, storePathIn } from '../../compose/home.js';
import type { LogFormat } from '../../compose/log-formats.js';
import type { CommandOutput } from '../../core/command-output.js';
import { Store } from '../../store/store.js';

export interface ExportLogsOptions {
  home?: string;
  format: string;
  out: string;
  run?: string[];
  model?: string[];
}

/** `medbench export logs`: the chosen runs in the chosen format; the files' paths on stdout. */
export function exportLogsCommand(
  options: ExportLogsOptions,
  formats: readonly LogFormat[],
  output: CommandOutput,
): void {
  const format = formats.find((candidate) => candidate.name === options.format)!;
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
