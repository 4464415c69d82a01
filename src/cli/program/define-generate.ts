import type { Command } from 'commander';
import { generateMeDiSumCodeCommand } from '../commands/generate-medisumcode.js';
import { generateMeDiSumQaCommand } from '../commands/generate-medisumqa.js';
import { modelOptions, retryOptions } from './define-run.js';
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
  const medisumqa = generate
    .command('medisumqa')
    .description(
      "CLUE MeDiSumQA from MIMIC-IV-Note discharge notes with a chat model: data/MeDiSumQA/generate_qas.py's two steps, then post_process_qas.py",
    )
    .requiredOption('--discharge <file>', 'MIMIC-IV-Note note/discharge.csv (or .csv.gz)')
    .requiredOption('--model <spec>', 'the generating model (restricted data: approved endpoints only)')
    .requiredOption(
      '--out <file>',
      'the MeDiSumQA file to write (JSON lines; name it medisumqa.json in your CLUE folder)',
    )
    .requiredOption(
      '--top-k-qas <n>',
      "question-answer pairs to keep (post_process_qas.py's --top_k_qas; the published set has 453)",
      integer('--top-k-qas', { min: 1 }),
    )
    .requiredOption(
      '--bertscore-model <folder>',
      'local ONNX export of emilyalsentzer/Bio_ClinicalBERT (model.onnx with hidden_states outputs, tokenizer.json)',
    )
    .option(
      '--bertscore-layer <n>',
      "hidden layer to read (default 9, bert_score's for Bio_ClinicalBERT)",
      integer('--bertscore-layer', { min: 0 }),
    )
    .option('--notes-out <file>', "generate_qas.py's own output (default: --out with .notes.jsonl)")
    .option(
      '--max-notes <n>',
      "notes to generate from (the script's --max_discharge_notes, default 4000)",
      integer('--max-notes', { min: 1 }),
    )
    .option(
      '--example-note <id>',
      'the note whose discharge instructions are the few-shot example (default 13714762-DS-14)',
    )
    .option('--force', 'replace --out and --notes-out if they exist');
  retryOptions(modelOptions(medisumqa)).action(
    action((options, command: Command) => {
      // --no-system-role defaults to true; only a flag the user typed may override the config.
      if (command.getOptionValueSource('systemRole') !== 'cli') delete options.systemRole;
      return generateMeDiSumQaCommand(context.withHome(options), context.output);
    }),
  );
}
