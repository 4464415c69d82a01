import { Command, Option } from 'commander';
import { MedbenchError } from '../core/errors.js';
import { listTokenizers } from '../tokenizers/registry.js';
import { VERSION } from '../version.js';
import { buildMedOdysseyCommand, type CommandOutput } from './commands/build-medodyssey.js';
import { exportClueUmlsTextsCommand, rescoreClueUmlsCommand } from './commands/clue-umls-entities.js';
import { demoCommand } from './commands/demo.js';
import { exportMedEurekaTriplesCommand } from './commands/export-medeureka-triples.js';
import { importMedOdysseyCommand } from './commands/import-medodyssey.js';
import { ratiosCommand } from './commands/ratios.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { runClueCommand } from './commands/run-clue.js';
import { runMedEurekaCommand } from './commands/run-medeureka.js';
import { viewCommand } from './commands/view.js';
import { parsePositiveNumber } from './parse-options.js';

const output: CommandOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Prints one clear error: code, message, and how to fix it. */
export function printError(error: unknown): number {
  if (MedbenchError.is(error)) {
    process.stderr.write(`medbench: error [${error.code}] ${error.message}\n`);
    if (error.hint) process.stderr.write(`  hint: ${error.hint}\n`);
    return error.code === 'USAGE' ? 2 : 1;
  }
  process.stderr.write(`medbench: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
  return 1;
}

function action<Arguments extends unknown[]>(handler: (...args: Arguments) => unknown) {
  return async (...args: Arguments) => {
    try {
      await handler(...args);
    } catch (error) {
      process.exitCode = printError(error);
    }
  };
}

const number = (flag: string) => (value: string) => parsePositiveNumber(flag, value);

export function createProgram(): Command {
  const program = new Command('medbench')
    .description(
      'Evaluate LLMs and embedding models on medical benchmarks (MedOdyssey, MedEureka, CLUE), scored as the papers did.',
    )
    .version(VERSION)
    .option(
      '--home <dir>',
      'folder for all state (store, caches, reports); default $MEDBENCH_HOME or ~/.medbench',
    )
    .showHelpAfterError();
  const home = () => program.opts<{ home?: string }>().home;

  program
    .command('demo')
    .description(
      'build NIAH and Counting from the shipped sample data, run the extractive baseline, print and save the report',
    )
    .action(action(() => demoCommand({ ...(home() ? { home: home()! } : {}) }, output)));

  const build = program
    .command('build')
    .description('build a benchmark dataset file from an official release');
  build
    .command('medodyssey')
    .description('build the MedOdyssey NIAH and Counting grid into a JSONL dataset')
    .option('--data <folder>', 'NIAH/Counting: the official release (repository root or its dataset/ folder)')
    .option('--sources <folder>', 'KG/Term/Table/Case: your knowledge sources (docs/medodyssey-sources.md)')
    .requiredOption('--out <file>', 'dataset file to write (JSONL)')
    .addOption(
      new Option('--task <tasks>', 'niah, counting, kg, term, table, case (comma list) or all').default(
        'all',
      ),
    )
    .option('--kg-questions <n>', 'KG questions to generate per language (default 100)')
    .option(
      '--prompts <file>',
      "KG/Term/Table/Case prompt templates in the release's prompt.json layout (default: --data's prompt.json, else --sources')",
    )
    .addOption(new Option('--lang <languages>', 'en, zh, en,zh or all').default('all'))
    .option('--levels <list>', "token levels, e.g. 4k,8k (default: the paper's seven, 4k to 200k)")
    .option('--depths <list>', 'needle depths in percent (default 0,25,50,75,100)')
    .option('--needles <ids>', 'only these needle ids')
    .addOption(
      new Option('--mic <mode>', 'maximum identical context: ratio (paper), exact or per-model').default(
        'ratio',
      ),
    )
    .option('--gamma-en <ratio>', 'ratio mode: tokens per character for en (default 0.36)')
    .option('--gamma-zh <ratio>', 'ratio mode: tokens per character for zh (default 1.41)')
    .addOption(
      new Option(
        '--tokenizers <names>',
        'tokenizers or model names to count (and, for exact/per-model, fit) with',
      ).default('o200k_base'),
    )
    .addOption(new Option('--haystack <kind>', 'medical (published) or generic haystack').default('medical'))
    .option('--counting-types <types>', 'repeat,increase,shuffle,correction (default all four)')
    .addOption(
      new Option('--counting-sentences <range>', 'number k of counting sentences, N or MIN-MAX').default(
        '6-20',
      ),
    )
    .option(
      '--counting-draws <file>',
      "Counting: the published random choices (the shared data's counting-draws.json, or a file of that shape) instead of seeded ones; rebuilds the published prompts byte for byte",
    )
    .option(
      '--counting-from-published <folder>',
      "Counting: take the published zh prompts as they are from a release's evaluation_result/",
    )
    .addOption(new Option('--seed <seed>', 'seed of every random choice').default('medbench'))
    .action(action((options) => buildMedOdysseyCommand(options, output)));

  program
    .command('run [suite]')
    .description(
      'run a dataset file (--dataset) against a model, or `run clue --data <folder>`; stores every response and score',
    )
    .option('--dataset <file>', 'dataset file written by `medbench build`')
    .requiredOption(
      '--model <spec>',
      'config name, baseline, openai:<m>, anthropic:<m>, openai-compatible:<m>@<url>',
    )
    .option('--data <folder>', 'clue: folder with the official task files')
    .option(
      '--tasks <list>',
      'clue: mednli,meqsum,problem-summary,longhealth,medisumqa,medisumcode (default: all found)',
    )
    .option('--umls <file>', 'clue: your UMLS MRCONSO.RRF, for UMLS F1 and the Problem Summary baseline')
    .option('--umls-language <code>', 'clue: MRCONSO language to keep (default ENG)')
    .option('--icd10 <file>', 'clue: the official ICD-10-CM order or codes file, for the valid-code rate')
    .addOption(
      new Option(
        '--protocol <name>',
        "clue: which version of the authors' scripts to follow: paper-2024 (commit fdb4ec7, Table 3's) or repo-2025 (commit 2de4314)",
      ).default('paper-2024'),
    )
    .option('--limit <n>', 'clue: at most n scored items per task', number('--limit'))
    .option(
      '--bertscore-model <encoder=folder>',
      'clue: a local ONNX export for BERTScore (model.onnx + tokenizer.json), as allenai/scibert_scivocab_uncased=<folder> or emilyalsentzer/Bio_ClinicalBERT=<folder>, or a bare folder for both; repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--bertscore-layer <n|last>',
      "clue: hidden layer to read (output hidden_states.<n>) instead of the protocol's (8 SciBERT, 9 Bio_ClinicalBERT); last: the export's last_hidden_state (an export cut to that layer)",
      (value) => (value === 'last' ? 'last' : parsePositiveNumber('--bertscore-layer', value)),
    )
    .option(
      '--seed <n>',
      "clue: seed of LongHealth's document shuffles and distractor draws (default 1)",
      number('--seed'),
    )
    .option(
      '--no-system-role',
      "the model's chat template has no system role: the system prompt joins the first user turn",
    )
    .option('--config <file>', 'config file (default ./medbench.config.{json,mjs,js})')
    .option('--label <name>', 'display name in reports')
    .option('--task <task>', 'only this task of the dataset')
    .option('--context-window <tokens>', "the model's context window", number('--context-window'))
    .option('--tokenizer <name>', "tokenizer counting the model's prompts (too_long check)")
    .option('--concurrency <n>', 'requests in flight per endpoint', number('--concurrency'))
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--completions', 'a base model: send plain-text prompts to /completions instead of chat messages')
    .option('--temperature <t>', 'sampling temperature (default 0)', (value) => Number(value))
    .option('--max-output-tokens <n>', 'output token limit (default 500)', number('--max-output-tokens'))
    .option('--timeout-ms <ms>', 'per-request timeout (default 600000)', number('--timeout-ms'))
    .option('--max-retries <n>', 'retries on 429/5xx/timeouts (default 6)', (value) => Number(value))
    .option(
      '--instruction <template>',
      'medeureka: query instruction template: e5, bge, bge-gemma2, none, or a literal with {instruction} and {query}',
    )
    .option('--pooling <pooling>', 'medeureka, onnx models: cls, mean or last-token')
    .option('--batch-size <n>', 'medeureka: texts per embedding call', number('--batch-size'))
    .option('--dimensions <n>', 'medeureka: expected embedding size (checked)', number('--dimensions'))
    .option('--max-length <n>', 'medeureka, onnx models: token limit per text', number('--max-length'))
    .option('--encoding <format>', 'medeureka: float or base64 embeddings')
    .option('--no-embedding-cache', 'medeureka: do not read or write the embedding cache')
    .action(
      action(async (suite: string | undefined, options, command: Command) => {
        // --no-system-role defaults to true; only a flag the user typed may override the config.
        if (command.getOptionValueSource('systemRole') !== 'cli') delete options.systemRole;
        const withHome = { ...options, ...(home() ? { home: home()! } : {}) };
        if (suite === 'medeureka') {
          if (!options.data)
            throw new MedbenchError({
              code: 'USAGE',
              message: 'run medeureka needs --data <release folder>.',
            });
          return runMedEurekaCommand(withHome, output);
        }
        if (suite === 'clue') {
          if (!options.data)
            throw new MedbenchError({
              code: 'USAGE',
              message: 'run clue needs --data <folder with the official files>.',
            });
          return runClueCommand(withHome, output);
        }
        if (suite !== undefined) {
          throw new MedbenchError({
            code: 'USAGE',
            message: `Unknown suite "${suite}".`,
            hint: 'Use `run clue --data …`, or `run --dataset <file>` for a built dataset.',
          });
        }
        if (!options.dataset) {
          throw new MedbenchError({
            code: 'USAGE',
            message: 'run needs --dataset <file> (or `run clue --data <folder>`).',
          });
        }
        return runCommand(withHome, output);
      }),
    );

  const importCommand = program.command('import').description('import published model outputs');
  importCommand
    .command('medodyssey-outputs <folder>')
    .description("import the MedOdyssey authors' outputs (evaluation_result/) and re-score them")
    .option('--needles <folder>', 'release folder holding dataset/task_data/needles, if not <folder>')
    .action(
      action((folder, options) =>
        importMedOdysseyCommand({ folder, ...options, ...(home() ? { home: home()! } : {}) }, output),
      ),
    );

  const exportCommand = program.command('export').description('export data derived from a benchmark');
  exportCommand
    .command('clue-umls-texts')
    .description(
      "a CLUE run's outputs and references scored with UMLS F1, as JSONL { id, prediction, reference }, for a linker such as scispacy",
    )
    .requiredOption('--run <id>', 'the run (an id prefix)')
    .requiredOption('--out <file>', 'JSONL file to write')
    .action(
      action((options) =>
        exportClueUmlsTextsCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output),
      ),
    );
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
    .action(
      action((options) =>
        rescoreClueUmlsCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output),
      ),
    );
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
      (value) => Number(value),
    )
    .option('--negatives <n>', 'hard negatives per pair (default 5)', number('--negatives'))
    .addOption(
      new Option(
        '--format <format>',
        'triplet (one row per negative) or n-tuple (negative_1 … negative_n)',
      ).default('triplet'),
    )
    .option('--instruction <template>', 'query instruction template: e5, bge, bge-gemma2, none or a literal')
    .option('--pooling <pooling>', 'onnx models: cls, mean or last-token')
    .option('--batch-size <n>', 'texts per embedding call', number('--batch-size'))
    .option('--config <file>', 'config file (default ./medbench.config.{json,mjs,js})')
    .action(
      action((options) =>
        exportMedEurekaTriplesCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output),
      ),
    );

  program
    .command('view')
    .description('a local web viewer over the store (read-only; binds 127.0.0.1)')
    .option('--port <port>', 'port (default: a free one)', number('--port'))
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; anything else is reachable from your network)',
    )
    .action(action((options) => viewCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output)));

  program
    .command('report')
    .description('print stored results as tables (or --json, --html)')
    .addOption(new Option('--suite <suite>', 'medodyssey, clue or medeureka').default('medodyssey'))
    .option('--run <ids...>', 'only these runs (id prefixes)')
    .option('--model <labels...>', 'only these model labels')
    .option('--metric <metric>', 'esm or ssm (default both)')
    .option('--json', 'one machine-readable JSON document')
    .option(
      '--html <file|folder>',
      'a .html file: one self-contained report; a folder: the viewer as a static site',
    )
    .option('--base <label>', 'clue: compare every other model with this one (Figure 5)')
    .action(action((options) => reportCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output)));

  program
    .command('ratios')
    .description(
      'token-to-character ratios (Table A1): each tokenizer on each MedOdyssey haystack, every printed cell compared, and the γ it needs',
    )
    .requiredOption('--data <folder>', 'the official release: repository root or its dataset/ folder')
    .addOption(
      new Option('--tokenizers <names>', 'tokenizers or model names').default(
        'gpt-4-turbo,gpt-4o,claude-3-haiku,llama3',
      ),
    )
    .addOption(new Option('--lang <languages>', 'en, zh or all').default('all'))
    .addOption(new Option('--haystack <kind>', 'medical or generic').default('medical'))
    .option('--dataset <file>', 'also measure the prompts of a built dataset, per language and task')
    .option('--json', 'rows as JSON')
    .action(action((options) => ratiosCommand(options, output)));

  program
    .command('tokenizers')
    .description('list the tokenizers medbench can count with')
    .action(() => {
      for (const { name, description, cuts } of listTokenizers())
        output.stdout(`${name.padEnd(14)} ${description}${cuts ? '' : ' (counts only: cannot cut text)'}\n`);
    });
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  await createProgram().parseAsync(argv);
}
