import type { Store } from '../store/store.js';
import type { RunFilter } from './stored-report.js';

/**
 * A suite's own format of `medbench export logs --format <name>` (`SuitePlugin.logFormats`; the
 * formats of every suite's runs are `LOG_FORMATS` of export-logs.ts): the stored runs the filter
 * chooses, written as files another tool reads.
 */
export interface SuiteLogFormat {
  name: string;
  /** What it writes and for which runs, for `export logs --help`. */
  description: string;
  /** Writes into `folder` (made if missing); returns the files written. Nothing chosen: a USAGE error. */
  write(request: { store: Store; filter: RunFilter; folder: string }): string[];
}
