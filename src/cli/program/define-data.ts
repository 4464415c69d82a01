import { type Command, Option } from 'commander';
import { exportClueUmlsTextsCommand, rescoreClueUmlsCommand } from '../commands/clue-umls-entities.js';
import { exportMedEurekaTriplesCommand } from '../commands/export-medeureka-triples.js';
import { action, decimal, integer, type ProgramContext } from './program-context.js';

/** `medbench export` and `rescore`: data in and out of the store. */
export function defineData(program: Command, context: ProgramContext): void {
  const exportCommand = program.command('export').description('export data derived from a benchmark');
  exportCommand
    .command('clue-umls-texts')
    .description(
      "a CLUE run's outputs and references scored with UMLS F1, as JSONL { id, prediction, reference }, for a linker such as scispacy",
    )
    .requiredOption('--run <id>', 'the run (an id prefix)')
    .requiredOption('--out <file>', 'JSONL file to write')
    .action(action((options) => exportClueUmlsTextsCommand(context.withHome(options), context.output)));
  program
    .command('rescore')
    .description('score a stored run again with resources computed elsewhere')
    .command('clue')
    .description(
      'UMLS F1 of a CLUE run from entity sets (JSONL { id, prediction: [...], reference: [...] }, e.g. from scispacy)',
    )
    .requiredOption('--run <id>', 'the run (an id prefix)')
    .requiredOption(
      '--umls-entities <file>',
      'JSONL of the concept names (or CUIs) found in each output and reference',
    )
    .action(action((options) => rescoreClueUmlsCommand(context.withHome(options), context.output)));
  defineTriplesExport(exportCommand, context);
}

/** `medbench export medeureka-triples`. */
function defineTriplesExport(exportCommand: Command, context: ProgramContext): void {
  exportCommand
    .command('medeureka-triples')
    .description(
      'training triples: query, positive, hard negatives mined with --model (sentence-transformers JSONL)',
    )
    .requiredOption('--data <folder>', 'MedEureka release folder (any official form)')
    .requiredOption('--model <spec>', 'the mining model: embedding model spec, bm25 or lsa')
    .requiredOption('--out <file>', 'JSONL file to write')
    .option('--split <name>', 'query split of a Hugging Face release (default test; train for training data)')
    .option('--tasks <keys>', 'only these task keys (comma-separated)')
    .option(
      '--threshold <score>',
      'keep negatives scoring at least this (cosine for embedding models; default 0.5)',
      decimal('--threshold'),
    )
    .option('--negatives <n>', 'hard negatives per pair (default 5)', integer('--negatives', { min: 1 }))
    .addOption(
      new Option('--format <format>', 'triplet (one row per negative) or n-tuple (negative_1 … negative_n)')
        .choices(['triplet', 'n-tuple'])
        .default('triplet'),
    )
    .option('--instruction <template>', 'query instruction template: e5, bge, bge-gemma2, none or a literal')
    .addOption(
      new Option('--pooling <pooling>', 'onnx models: cls, mean or last-token').choices([
        'cls',
        'mean',
        'last-token',
      ]),
    )
    .option('--batch-size <n>', 'texts per embedding call', integer('--batch-size', { min: 1 }))
    .option('--config <file>', 'config file (default ./medbench.config.{json,mjs,js})')
    .option(
      '--restricted',
      'the release is restricted (credentialed): mine only with an in-process model, a server on this machine or an approved one',
    )
    .action(action((options) => exportMedEurekaTriplesCommand(context.withHome(options), context.output)));
}
