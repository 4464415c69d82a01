import { type CommandOption, numberOption } from '../../../compose/suite-plugin.js';

/** How an embedding model is called: `run medeureka` and `export medeureka-triples` take them alike. */
export const EMBEDDING_CALL_OPTIONS: readonly CommandOption[] = [
  {
    flags: '--pooling <pooling>',
    description: 'onnx models: cls, mean or last-token',
    choices: ['cls', 'mean', 'last-token'],
  },
  {
    flags: '--batch-size <n>',
    description: 'texts per embedding call',
    parse: numberOption('--batch-size', { min: 1 }),
  },
];

/** MedEureka's own options of `medbench run medeureka` (embedding models and retrievers). */
export const MEDEUREKA_RUN_OPTIONS: readonly CommandOption[] = [
  {
    flags: '--tasks <list>',
    description: 'only these task keys (comma-separated, either spelling; default: all found)',
  },
  {
    flags: '--instruction <template>',
    description:
      'query instruction template: e5, bge, bge-gemma2, none, or a literal with {instruction} and {query}',
  },
  ...EMBEDDING_CALL_OPTIONS,
  {
    flags: '--dimensions <n>',
    description: 'expected embedding size (checked)',
    parse: numberOption('--dimensions', { min: 1 }),
  },
  {
    flags: '--max-length <n>',
    description: 'onnx models: token limit per text',
    parse: numberOption('--max-length', { min: 1 }),
  },
  { flags: '--encoding <format>', description: 'float or base64 embeddings', choices: ['float', 'base64'] },
  { flags: '--no-embedding-cache', description: 'do not read or write the embedding cache' },
];
