import type { Command } from 'commander';
import { generateMeDiSumCodeCommand } from '../commands/generate-medisumcode.js';
import {
  type GenerateMeDiSumQaCommandOptions,
  generateMeDiSumQaCommand,
} from '../commands/generate-medisumqa.js';
import { modelOptions, retryOptions } from './define-run.js';
import { action, integer, type ProgramContext } from './program-context.js';

/** The generate commands take `run`'s model and retry options, not those of a stored run (label, task, dry run, shard); --redact is their own. */
const GENERATION = { forRuns: false };

const REDACT =
  'keep no note, prompt or answer text in generate.sqlite (SHA-256 hashes and lengths only; the answers stay in memory until the files are written, so a re-run after a stop asks the model again)';

/** `medbench generate …`: build a benchmark's data from the user's own (credentialed) files. */
export function defineGenerate(program: Command, context: ProgramContext): void {
  const generate = program
    .command('generate')
    .description("build a benchmark's data from your own files, as its authors' scripts do");
  defineMeDiSumCode(generate, context);
  defineMeDiSumQa(generate, context);
}

/** A generate command's action with `run`'s model options: --no-system-role only when typed. */
function withModelOptions<Options extends { systemRole?: boolean }>(
  handler: (options: Options) => Promise<void>,
) {
  return action((options: Options, command: Command) => {
    if (command.getOptionValueSource('systemRole') !== 'cli') delete options.systemRole;
    return handler(options);
  });
}

function defineMeDiSumCode(generate: Command, context: ProgramContext): void {
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

function defineMeDiSumQa(generate: Command, context: ProgramContext): void {
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
    .option(
      '--bertscore-model <folder>',
      "local ONNX export of emilyalsentzer/Bio_ClinicalBERT (model.onnx with hidden_states outputs, tokenizer.json), for post_process_qas.py's step; without it the command stops after writing --notes-out",
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
    .option('--force', 'replace --out and --notes-out if they exist')
    .option('--redact', REDACT);
  retryOptions(
    modelOptions(medisumqa, { ...GENERATION, outputLimit: "the script's 1000" }),
    GENERATION,
  ).action(
    withModelOptions((options: GenerateMeDiSumQaCommandOptions) =>
      generateMeDiSumQaCommand(context.withHome(options), context.output),
    ),
  );
}
