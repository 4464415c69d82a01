import type { SuitePlugin } from '../../../compose/suite-plugin.js';
import { medodysseySuite } from '../suite.js';

/** MedOdyssey's commands; its runs are runs of a built dataset (`run --dataset`). */
export const medodysseyPlugin: SuitePlugin = {
  suite: medodysseySuite,
  commands: [],
};
