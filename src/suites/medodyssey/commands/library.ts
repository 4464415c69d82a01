/** What the library (`src/index.ts`, through the registry) offers of MedOdyssey. */
export { medodysseyTasks, prepareMedOdysseyBuild } from '../index.js';
export { extractJsonAnswer, findFlatJsonObjects } from '../json-answer.js';
export { renderMedOdysseyHtml } from '../medodyssey-html.js';
export { buildMedOdysseyReport } from '../medodyssey-report.js';
export { renderMedOdysseyText } from '../medodyssey-text.js';
export { readPublishedOutputs } from '../published-outputs.js';
export { medodysseySuite } from '../suite.js';
