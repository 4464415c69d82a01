/** What the library (`src/index.ts`, through the registry) offers of MedEureka. */

export { evaluateRetrieval } from '../evaluate.js';
export { applyInstruction, instructionFor, MEDEUREKA_INSTRUCTIONS } from '../instructions.js';
export { loadMedEurekaRelease } from '../load-release.js';
export {
  buildMedEurekaReport,
  renderMedEurekaHtml,
  renderMedEurekaText,
} from '../medeureka-report.js';
export { medeurekaSuite } from '../suite.js';
export {
  type EvaluateRetrieverRequest,
  evaluateRetriever,
} from './evaluate-retriever.js';
export {
  type GenerateQueriesRequest,
  generateQueries,
} from './generate-queries.js';
