import type { Command } from 'commander';
import { generateMeDiSumCodeCommand } from '../commands/generate-medisumcode.js';
import { action, integer, type ProgramContext } from './program-context.js';

/** `medbench generate …`: build a benchmark's data from the user's own (credentialed) files. */
export function defineGenerate(program: Command, context: ProgramContext): void {
  const generate = program
    .command('generate')
    .description("build a benchmark's data from your own files, as its authors' scripts do");
  generate
    .command('medisumcode')
    .description(
      'CLUE MeDiSumCode from MIMIC-IV (discharge notes + diagnoses), as data/MeDiSumCode/generate_code_dataset.py builds it',
    )
    .requiredOption('--discharge <file>', 'MIMIC-IV-Note note/discharge.csv (or .csv.gz)')
    .requiredOption('--diagnoses-icd <file>', 'MIMIC-IV hosp/diagnoses_icd.csv (or .csv.gz)')
    .requiredOption('--out <file>', 'JSON-lines file to write (name it medisumcode.json in your CLUE folder)')
    .option(
      '--max-examples <n>',
      'notes kept after the seed-44 shuffle (default 500)',
      integer('--max-examples', { min: 1 }),
    )
    .option('--force', 'replace --out if it exists')
    .action(action((options) => generateMeDiSumCodeCommand(options, context.output)));
}
