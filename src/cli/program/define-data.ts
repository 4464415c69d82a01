import { type Command, Option } from 'commander';
import { exportMedEurekaTriplesCommand } from '../commands/export-medeureka-triples.js';
import { importMedOdysseyCommand } from '../commands/import-medodyssey.js';
import { action, decimal, integer, type ProgramContext } from './program-context.js';

/** `medbench import` and `export`: data in and out of the store. */
export function defineData(program: Command, context: ProgramContext): void {
  const importCommand = program.command('import').description('import published model outputs');
  importCommand
    .command('medodyssey-outputs <folder>')
    .description("import the MedOdyssey authors' outputs (evaluation_result/) and re-score them")
    .option('--needles <folder>', 'release folder holding dataset/task_data/needles, if not <folder>')
    .action(
      action((folder, options) =>
        importMedOdysseyCommand(context.withHome({ folder, ...options }), context.output),
      ),
    );

  const exportCommand = program.command('export').description('export data derived from a benchmark');
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
