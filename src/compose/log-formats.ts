import type { Store } from '../store/store.js';
import type { RunFilter } from './stored-report.js';

/**
 * One format of `medbench export logs --format <name>`: the stored runs the filter chooses,
 * written as files another tool reads.
 */
export interface LogFormat {
  name: string;
  /** What it writes and for which runs, for `export logs --help`. */
  description: string;
  /** Writes into `folder` (made if missing); returns the files written. Nothing chosen: a USAGE error. */
  write(request: { store: Store; filter: RunFilter; folder: string }): string[];
}

/** Formats of every suite's runs; a suite's own come with its plugin (`SuitePlugin.logFormats`). */
export const LOG_FORMATS: readonly LogFormat[] = [];
