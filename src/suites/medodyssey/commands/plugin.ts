import type { SuitePlugin } from '../../../compose/suite-plugin.js';
import { medodysseySuite } from '../suite.js';
import { buildMedOdysseyCommand } from './build-medodyssey.js';
import { medodysseyDemo } from './demo.js';
import { importMedOdysseyOutputsCommand } from './import-medodyssey-outputs.js';
import { ratiosCommand } from './ratios-command.js';

/** MedOdyssey's commands and its part of the demo; its runs are runs of a built dataset (`run --dataset`). */
export const medodysseyPlugin: SuitePlugin = {
  suite: medodysseySuite,
  commands: [buildMedOdysseyCommand, importMedOdysseyOutputsCommand, ratiosCommand],
  demo: medodysseyDemo,
};
