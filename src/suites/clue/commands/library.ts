/** What the library (`src/index.ts`, through the registry) offers of CLUE. */
export { buildClueReport, renderClueHtml, renderClueText } from '../clue-report.js';
export { formatMeDiSumCodeLines, generateMeDiSumCode } from '../generate-medisumcode.js';
export { readIcdTables, shippedIcdTables } from '../icd-tables.js';
export { clueSuite } from '../suite.js';
export {
  type GenerateMeDiSumQaRequest,
  generateMeDiSumQa,
} from './generate-medisumqa.js';
