import type { SuitePlugin } from '../../../compose/suite-plugin.js';
import { judgeValidateJsonSchema } from '../judge-validation-schema.js';
import { clueSuite } from '../suite.js';
import { cluePlan } from './clue-plan.js';
import { CLUE_RUN_OPTIONS } from './clue-run-options.js';
import { exportClueUmlsTexts, rescoreClue } from './clue-umls-entities.js';
import { generateMeDiSumCodeCommand } from './generate-medisumcode-command.js';
import { generateMeDiSumQaCommand } from './generate-medisumqa-command.js';
import { judgeCommand } from './judge-command.js';
import { judgeProbeCommand } from './judge-probe-command.js';
import { judgeValidateCommand } from './judge-validate-command.js';

/** CLUE's commands and its run (`run clue --data <folder>`). */
export const cluePlugin: SuitePlugin = {
  suite: clueSuite,
  commands: [
    generateMeDiSumCodeCommand,
    generateMeDiSumQaCommand,
    exportClueUmlsTexts,
    rescoreClue,
    judgeCommand,
    judgeProbeCommand,
    judgeValidateCommand,
  ],
  jsonSchemas: { 'judge-validate.schema.json': judgeValidateJsonSchema },
  run: {
    data: 'folder with the official files',
    options: CLUE_RUN_OPTIONS,
    plan: cluePlan,
  },
};
