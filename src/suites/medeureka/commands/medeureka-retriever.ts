import { instructionTemplateOf, retrieverFromSpec } from '../../../compose/retrievers.js';
import type { Retriever } from '../../../core/retriever.js';
import { resolveTemplate } from '../instructions.js';

/** The retriever a `--model` spec names, its query instruction template checked against MedEureka's. */
export function medeurekaRetriever(options: Parameters<typeof retrieverFromSpec>[0]): Promise<Retriever> {
  const template = instructionTemplateOf(options.spec, options.config, options.overrides);
  if (template !== undefined) resolveTemplate(template);
  return retrieverFromSpec(options);
}
