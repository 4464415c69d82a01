import { type Command, Option } from 'commander';
import { GENERATION_REDACT_OPTION } from '../../compose/generation-runs.js';
import { type GenerateQueriesCommandOptions, generateQueriesCommand } from '../commands/generate-queries.js';
import { modelOptions, retryOptions } from './define-run.js';
import { action, type ProgramContext } from './program-context.js';

/** The generate commands take `run`'s model and retry options, not those of a stored run (label, task, dry run, shard); --redact is their own. */
const GENERATION = { forRuns: false };

const REDACT = GENERATION_REDACT_OPTION.description;

/** `medbench generate …`: build a benchmark's data from the user's own (credentialed) files. */
export function defineGenerate(program: Command, context: ProgramContext): void {
  const generate = program
    .command('generate')
    .description("build a benchmark's data from your own files, as its authors' scripts do");
  defineQueries(generate, context);
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

function defineQueries(generate: Command, context: ProgramContext): void {
  const queries = generate
    .command('queries')
    .description(
      "MedEureka-style queries from your own documents with the paper's query-generation prompt (Figure C11), written as a MedEureka release for run medeureka",
    )
    .requiredOption(
      '--documents <path>',
      'a folder of .md/.txt documents (tables), or a JSON-lines file of { id?, text }',
    )
    .requiredOption('--model <spec>', 'the generating model')
    .requiredOption(
      '--example-table <file>',
      "the example table the prompt shows (the paper's: MSD's causes of chest pain)",
    )
    .requiredOption('--out <folder>', 'folder for queries.jsonl, corpus.json and review.jsonl')
    .addOption(
      new Option('--language <language>', "the prompt: zh (the paper's) or en (medbench's translation)")
        .choices(['zh', 'en'])
        .default('zh'),
    )
    .option(
      '--example-output <file>',
      "the example's output JSON (default: the paper's, or its translation for en)",
    )
    .option('--task-key <key>', 'the MedEureka task key to file the queries under (default Table_<language>)')
    .option('--force', 'replace the files in --out')
    .option('--redact', REDACT);
  retryOptions(modelOptions(queries, { ...GENERATION, outputLimit: "the recipe's 2000" }), GENERATION).action(
    withModelOptions((options: GenerateQueriesCommandOptions) =>
      generateQueriesCommand(context.withHome(options), context.output),
    ),
  );
}
