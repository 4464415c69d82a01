import type { SuitePlugin } from '../../../compose/suite-plugin.js';
import { medeurekaSuite } from '../suite.js';
import { medeurekaDemo } from './demo.js';

/** MedEureka's commands and its run (`run medeureka --data <folder>`). */
export const medeurekaPlugin: SuitePlugin = {
  suite: medeurekaSuite,
  commands: [],
  demo: medeurekaDemo,
};
