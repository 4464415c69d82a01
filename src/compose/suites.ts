import { MedbenchError } from '../core/errors.js';
import type { Suite } from '../core/suite.js';
import { clueSuite } from '../suites/clue/suite.js';
import { medeurekaSuite } from '../suites/medeureka/suite.js';
import { medodysseySuite } from '../suites/medodyssey/suite.js';

/** Every suite medbench knows: the one list the commands, the report and the viewer read. */
export const SUITES: readonly Suite[] = [medodysseySuite, clueSuite, medeurekaSuite];

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
