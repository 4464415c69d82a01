import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { redactKnownSecrets } from '../compose/known-secrets.js';
import { SUITES } from '../compose/suites.js';
import { fileError, isFileSystemError, MedbenchError } from '../core/errors.js';
import { listTokenizers } from '../tokenizers/registry.js';
import { VERSION } from '../version.js';
import { buildMedOdysseyCommand, type CommandOutput } from './commands/build-medodyssey.js';
import { exportClueUmlsTextsCommand, rescoreClueUmlsCommand } from './commands/clue-umls-entities.js';
import { demoCommand } from './commands/demo.js';
import { exportMedEurekaTriplesCommand } from './commands/export-medeureka-triples.js';
import { importMedOdysseyCommand } from './commands/import-medodyssey.js';
import { ratiosCommand } from './commands/ratios.js';
import { reportCommand, textMetricChoices } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { runClueCommand } from './commands/run-clue.js';
import { runMedEurekaCommand } from './commands/run-medeureka.js';
import { viewCommand } from './commands/view.js';
import { type NumberRule, parseNumber } from './parse-options.js';
import { EXIT } from './run-session.js';

const output: CommandOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Prints one clear error: code, message, and how to fix it; returns the exit code. */
export function printError(error: unknown): number {
  if (MedbenchError.is(error)) {
    process.stderr.write(redactKnownSecrets(`medbench: error [${error.code}] ${error.message}\n`));
    if (error.hint) process.stderr.write(redactKnownSecrets(`  hint: ${error.hint}\n`));
    return error.code === 'USAGE' ? EXIT.usage : EXIT.failed;
  }
  if (isFileSystemError(error)) {
    // A file medbench did not expect to fail on: still a clear message, not a stack trace.
    const action = /write|open|mkdir|rename|unlink|copy/.test(error.syscall ?? '') ? 'write' : 'read';
    return printError(fileError(error, { path: error.path ?? '(a file)', action }));
  }
  process.stderr.write(
    redactKnownSecrets(`medbench: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`),
  );
  return EXIT.failed;
}

function action<Arguments extends unknown[]>(handler: (...args: Arguments) => unknown) {
  return async (...args: Arguments) => {
    try {
      await handler(...args);
    } catch (error) {
      process.exitCode = printError(error);
      // A usage error also shows how the command is called (commander passes it last).
      const command = args.at(-1);
      if (MedbenchError.is(error) && error.code === 'USAGE' && command instanceof Command)
        process.stderr.write(
          `  usage: ${command.parent?.name() ?? ''} ${command.name()} ${command.usage()} (--help for every option)\n`.replace(
            /^ {2}usage: {2}/,
            '  usage: ',
          ),
        );
    }
  };
}

/** An option's value parsed and checked, or commander's usage error (exit 2) naming the option. */
function checked<T>(parse: (value: string) => T) {
  return (value: string): T => {
    try {
      return parse(value);
    } catch (error) {
      if (MedbenchError.is(error)) throw new InvalidArgumentError(error.message.replace(/^--[\w-]+: /, ''));
      throw error;
    }
  };
}

const integer = (flag: string, rule: NumberRule = {}) =>
  checked((value) => parseNumber(flag, value, { ...rule, integer: true }));
const decimal = (flag: string, rule: NumberRule = {}) =>
  checked((value) => parseNumber(flag, value, { ...rule, integer: false }));

export function createProgram(): Command {
  const program = new Command('medbench')
    .description(
      'Evaluate LLMs and embedding models on medical benchmarks (MedOdyssey, MedEureka, CLUE), scored as the papers did.',
    )
    .version(VERSION)
    // Commander's own usage errors (unknown option, bad value) throw instead of exiting, so that
    // main() can give them exit code 2; set before the subcommands, which inherit it.
    .exitOverride()
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
    .description(
      'build MedOdyssey samples into a JSONL dataset: NIAH and Counting from the release (--data), KG, Term, Table and Case from your sources (--sources)',
    )
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
      new Option('--mic <mode>', 'maximum identical context: ratio (paper), exact or per-model')
        .choices(['ratio', 'exact', 'per-model'])
        .default('ratio'),
    )
    .option('--gamma-en <ratio>', 'ratio mode: tokens per character for en (default 0.36)')
    .option('--gamma-zh <ratio>', 'ratio mode: tokens per character for zh (default 1.41)')
    .addOption(
      new Option(
        '--tokenizers <names>',
        'tokenizers or model names to count (and, for exact/per-model, fit) with',
      ).default('o200k_base'),
    )
    .addOption(
      new Option('--haystack <kind>', 'medical (published) or generic haystack')
        .choices(['medical', 'generic'])
        .default('medical'),
    )
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
      'run a model on a benchmark and store every response and score: a built MedOdyssey dataset (`run --dataset <file>`), CLUE (`run clue --data <folder>`) or MedEureka (`run medeureka --data <folder>`, embedding models and retrievers). Exit code 0 when every sample was answered, 3 when some were not (re-run to retry them), 130 when stopped, 2 for a usage error, 1 otherwise',
    )
    .option('--dataset <file>', 'dataset file written by `medbench build`')
    .requiredOption(
      '--model <spec>',
      'a config name, baseline, openai:<m>, anthropic:<m>, openai-compatible:<m>@<url>; medeureka: an embedding model spec, bm25 or lsa',
    )
    .option('--data <folder>', 'clue, medeureka: the folder with the official files')
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
      )
        .choices(['paper-2024', 'repo-2025'])
        .default('paper-2024'),
    )
    .option('--limit <n>', 'clue: at most n scored items per task', integer('--limit', { min: 1 }))
    .option(
      '--bertscore-model <encoder=folder>',
      'clue: a local ONNX export for BERTScore (model.onnx + tokenizer.json), as allenai/scibert_scivocab_uncased=<folder> or emilyalsentzer/Bio_ClinicalBERT=<folder>, or a bare folder for both; repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--bertscore-layer <n|last>',
      "clue: hidden layer to read (output hidden_states.<n>) instead of the protocol's (8 SciBERT, 9 Bio_ClinicalBERT); last: the export's last_hidden_state (an export cut to that layer)",
      checked((value) =>
        value === 'last' ? 'last' : parseNumber('--bertscore-layer', value, { min: 0, max: 100 }),
      ),
    )
    .option(
      '--seed <n>',
      "clue: seed of LongHealth's document shuffles and distractor draws (default 1)",
      integer('--seed', { min: 0 }),
    )
    .option(
      '--no-system-role',
      "the model's chat template has no system role: the system prompt joins the first user turn",
    )
    .option('--config <file>', 'config file (default ./medbench.config.{json,mjs,js})')
    .option('--label <name>', 'display name in reports')
    .option('--task <task>', 'only this task of the dataset')
    .option(
      '--context-window <tokens>',
      "the model's context window",
      integer('--context-window', { min: 1 }),
    )
    .option('--tokenizer <name>', "tokenizer counting the model's prompts (too_long check)")
    .option(
      '--concurrency <n>',
      'requests in flight per endpoint',
      integer('--concurrency', { min: 1, max: 1024 }),
    )
    .option('--api-key-env <name>', 'environment variable holding the API key')
    .option('--completions', 'a base model: send plain-text prompts to /completions instead of chat messages')
    .option(
      '--temperature <t>',
      'sampling temperature, 0 to 2 (default 0)',
      decimal('--temperature', { min: 0, max: 2 }),
    )
    .option(
      '--max-output-tokens <n>',
      'output token limit (default 500)',
      integer('--max-output-tokens', { min: 1 }),
    )
    .option('--timeout-ms <ms>', 'per-request timeout (default 600000)', integer('--timeout-ms', { min: 1 }))
    .option(
      '--max-retries <n>',
      'retries per request on 429, 5xx, timeouts and broken connections (default 6)',
      integer('--max-retries', { min: 0, max: 100 }),
    )
    .option(
      '--max-retry-wait-ms <ms>',
      "the longest wait before a retry, whatever a server's Retry-After asks (default 60000)",
      integer('--max-retry-wait-ms', { min: 0 }),
    )
    .option(
      '--sample-timeout-ms <ms>',
      'time limit per sample, every attempt and wait included (default 1800000)',
      integer('--sample-timeout-ms', { min: 1 }),
    )
    .option('--fail-fast', 'stop at the first sample that gets no answer (default: record it and go on)')
    .option(
      '--instruction <template>',
      'medeureka: query instruction template: e5, bge, bge-gemma2, none, or a literal with {instruction} and {query}',
    )
    .addOption(
      new Option('--pooling <pooling>', 'medeureka, onnx models: cls, mean or last-token').choices([
        'cls',
        'mean',
        'last-token',
      ]),
    )
    .option('--batch-size <n>', 'medeureka: texts per embedding call', integer('--batch-size', { min: 1 }))
    .option(
      '--dimensions <n>',
      'medeureka: expected embedding size (checked)',
      integer('--dimensions', { min: 1 }),
    )
    .option(
      '--max-length <n>',
      'medeureka, onnx models: token limit per text',
      integer('--max-length', { min: 1 }),
    )
    .addOption(
      new Option('--encoding <format>', 'medeureka: float or base64 embeddings').choices(['float', 'base64']),
    )
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
    .action(
      action((options) =>
        exportMedEurekaTriplesCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output),
      ),
    );

  program
    .command('view')
    .description('a local web viewer over the store (read-only; binds 127.0.0.1)')
    .option('--port <port>', 'port (default: a free one)', integer('--port', { min: 0, max: 65535 }))
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; anything else is reachable from your network)',
    )
    .action(action((options) => viewCommand({ ...options, ...(home() ? { home: home()! } : {}) }, output)));

  program
    .command('report')
    .description('print stored results as tables (or --json, --html)')
    .addOption(
      new Option('--suite <suite>', SUITES.map((suite) => suite.name).join(', '))
        .choices(SUITES.map((suite) => suite.name))
        .default(SUITES[0]!.name),
    )
    .option('--run <ids...>', 'only these runs (id prefixes)')
    .option('--model <labels...>', 'only these model labels')
    .addOption(
      new Option('--metric <metric>', `${textMetricChoices().join(' or ')} (default all)`).choices(
        textMetricChoices(),
      ),
    )
    .option('--json', 'one machine-readable JSON document')
    .option(
      '--html <file|folder>',
      'a .html file: one self-contained report; a folder: the viewer as a static site',
    )
    .option('--base <label>', 'compare every other model with this one (CLUE, Figure 5)')
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
    .addOption(
      new Option('--haystack <kind>', 'medical or generic')
        .choices(['medical', 'generic'])
        .default('medical'),
    )
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
  try {
    await createProgram().parseAsync(argv);
  } catch (error) {
    // Commander has printed its message (and the command's help) already.
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    else process.exitCode = printError(error);
  }
}
