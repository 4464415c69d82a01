import type { Command } from 'commander';
import { exportClueUmlsTextsCommand, rescoreClueUmlsCommand } from '../commands/clue-umls-entities.js';
import { action, type ProgramContext } from './program-context.js';

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
}
