import type { SuitePlugin } from '../../../compose/suite-plugin.js';
import { MedbenchError } from '../../../core/errors.js';
import { medeurekaSuite } from '../suite.js';
import { medeurekaDemo } from './demo.js';
import { exportTriplesCommand } from './export-medeureka-triples.js';
import { mtebLogFormat } from './export-mteb.js';
import { generateQueriesCommand } from './generate-queries-command.js';
import { importMtebCommand } from './import-mteb.js';
import { retrieverPlan } from './retriever-plan.js';
import { MEDEUREKA_RUN_OPTIONS } from './run-options.js';

/** MedEureka's commands and its run (`run medeureka --data <folder>`). */
export const medeurekaPlugin: SuitePlugin = {
  suite: medeurekaSuite,
  commands: [exportTriplesCommand, generateQueriesCommand, importMtebCommand],
  logFormats: [mtebLogFormat],
  demo: medeurekaDemo,
  run: {
    data: 'release folder',
    model: 'an embedding model spec, bm25 or lsa',
    options: MEDEUREKA_RUN_OPTIONS,
    plan: (request, hooks) => {
      const { data } = request;
      if (!data)
        throw new MedbenchError({ code: 'USAGE', message: 'run medeureka needs --data <release folder>.' });
      return retrieverPlan({ ...request, data }, hooks);
    },
  },
};
