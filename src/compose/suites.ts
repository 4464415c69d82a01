import { MedbenchError } from '../core/errors.js';
import type { Suite } from '../core/suite.js';
import { cluePlugin } from '../suites/clue/commands/plugin.js';
import { medeurekaPlugin } from '../suites/medeureka/commands/plugin.js';
import { medodysseyPlugin } from '../suites/medodyssey/commands/plugin.js';
import type { SuitePlugin } from './suite-plugin.js';

// Each suite's library surface, offered by `src/index.ts` through this registry.
export * from '../suites/clue/commands/library.js';
export * from '../suites/medeureka/commands/library.js';
export * from '../suites/medodyssey/commands/library.js';

/**
 * Every suite medbench knows, with its commands and its run: the one list the CLI, the report,
 * the viewer and the library read, and the only file outside src/suites/ that names a suite.
 */
export const SUITE_PLUGINS: readonly SuitePlugin[] = [medodysseyPlugin, cluePlugin, medeurekaPlugin];

/** The suites themselves (reports, leaderboards, the viewer's pages). */
export const SUITES: readonly Suite[] = SUITE_PLUGINS.map((plugin) => plugin.suite);

/** The suite of that name, or a usage error listing the suites. */
export function suiteNamed(name: string, suites: readonly Suite[] = SUITES): Suite {
  const suite = suites.find((entry) => entry.name === name);
  if (!suite)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--suite ${name}: ${suites.map((entry) => entry.name).join(', ')}.`,
    });
  return suite;
}
