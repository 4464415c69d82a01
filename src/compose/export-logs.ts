import { join } from 'node:path';
import { MedbenchError } from '../core/errors.js';
import type { Store } from '../store/store.js';
import { eeeJsonl, eeeRecords } from './eee-log.js';
import { inspectLogs } from './inspect-log.js';
import { type LogSelection, loggedRuns } from './logged-runs.js';
import { writeOutputFile } from './output-file.js';

/** The standard log formats `medbench export logs` writes. */
export const LOG_FORMATS = ['eee', 'inspect'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** What an export wrote: the files, the runs, and how many results had their text withheld. */
export interface ExportedLogs {
  files: string[];
  runs: number;
  withheld: number;
}

/**
 * Writes the chosen stored runs as standard logs in `folder`: Every Eval Ever records in the
 * datastore's layout (`data/<benchmark>/<developer>/<model>/<uuid>.json` and `_samples.jsonl`),
 * or one Inspect eval log (`.json`) per run and task. Restricted text is withheld (`loggedRuns`).
 */
export function exportLogs(
  store: Store,
  options: { format: LogFormat; folder: string; selection: LogSelection; version: string; now?: Date },
): ExportedLogs {
  const runs = loggedRuns(store, options.selection);
  if (runs.length === 0)
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No stored run matches${options.selection.suite ? ` in ${options.selection.suite}` : ''}${
        options.selection.runIds ? ` (--run ${options.selection.runIds.join(', ')})` : ''
      }; nothing was written.`,
      hint: 'List the stored runs with `medbench report`, or check --home.',
    });
  const files: string[] = [];
  const write = (name: string, content: string) => {
    const path = join(options.folder, name);
    writeOutputFile(path, content);
    files.push(path);
  };
  for (const logged of runs) {
    if (options.format === 'eee') {
      const records = eeeRecords(logged, {
        version: options.version,
        retrievedAt: options.now ?? new Date(),
      });
      write(records.samplesPath, eeeJsonl(records.instances));
      write(records.aggregatePath, `${JSON.stringify(records.aggregate, null, 2)}\n`);
    } else
      for (const { name, log } of inspectLogs(logged, { version: options.version }))
        write(name, `${JSON.stringify(log, null, 2)}\n`);
  }
  const withheld = runs.reduce((total, run) => total + run.results.filter((row) => row.withheld).length, 0);
  return { files, runs: runs.length, withheld };
}
