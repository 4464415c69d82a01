import type { SuitePlugin } from '../../../compose/suite-plugin.js';
import { clueSuite } from '../suite.js';

/** CLUE's commands and its run (`run clue --data <folder>`). */
export const cluePlugin: SuitePlugin = {
  suite: clueSuite,
  commands: [],
};
