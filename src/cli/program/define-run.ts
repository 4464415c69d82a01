import { type Command, Option } from 'commander';
import { specForms } from '../../compose/bind-model.js';
import { MedbenchError } from '../../core/errors.js';
import { parseShard } from '../../runner/shard.js';
import { runCommand } from '../commands/run.js';
import { type RunClueOptions, runClueCommand } from '../commands/run-clue.js';
import { type RunMedEurekaOptions, runMedEurekaCommand } from '../commands/run-medeureka.js';
import { parseEnvironmentName, parseNumber } from '../parse-options.js';
import { action, checked, decimal, integer, type ProgramContext } from './program-context.js';

/**
 * Suites whose runs build their items from the official files for the model at hand, with options
 * of their own (`run <suite> --data <folder>`); every other suite runs a built dataset file.
 */
const SUITE_RUNS: Readonly<
  Record<
    string,
    {
      data: string;
      run: (
        options: RunClueOptions & RunMedEurekaOptions,
        output: ProgramContext['output'],
      ) => Promise<unknown>;
    }
  >
> = {
  clue: { data: 'folder with the official files', run: runClueCommand },
  medeureka: { data: 'release folder', run: runMedEurekaCommand },
};

/** CLUE's options of `medbench run clue`. */
function clueOptions(command: Command): Command {
  return command
    .option('--data <folder>', 'clue, medeureka: the folder with the official files')
    .option(
      '--tasks <list>',
      'clue: mednli,meqsum,problem-summary,longhealth,medisumqa,medisumcode (default: all found)',
    )
    .option('--umls <file>', 'clue: your UMLS MRCONSO.RRF, for UMLS F1 and the Problem Summary baseline')
    .option('--umls-language <code>', 'clue: MRCONSO language to keep (default ENG)')
    .option(
      '--icd10 <file>',
      'clue: an ICD-10-CM order or codes file for the valid-code rate (default: the icd10 package table the scripts used, shipped)',
    )
    .addOption(
      new Option(
        '--protocol <name>',
        "clue: which version of the authors' scripts to follow: paper-2024 (commit fdb4ec7, Table 3's) or repo-2025 (commit 2de4314)",
      )
        .choices(['paper-2024', 'repo-2025'])
        .default('paper-2024'),
    )
    .option(
      '--limit <n>',
      "every run: only the first n samples of each task, in the dataset's order (CLUE: items; MedEureka: queries, against the whole corpus); a run of its own, and its report says it was limited",
      integer('--limit', { min: 1 }),
    )
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
    );
}

/**
 * The model, its window and tokenizer, and its generation parameters. `outputLimit`: the output
 * limit without the flag or the config's, for the help (a generation protocol's own; runs: 500).
 */
export function modelOptions(
  command: Command,
  options: { forRuns?: boolean; outputLimit?: string } = {},
): Command {
  if (options.forRuns !== false)
    command
      .option('--label <name>', 'display name in reports')
      .option('--task <task>', 'only this task of the dataset')
      .option(
        '--redact',
        'store SHA-256 hashes and lengths instead of prompt, output, gold and error text (a run of its own; scores, counts and timings are kept)',
      );
  return command
    .option(
      '--no-system-role',
      "the model's chat template has no system role: the system prompt joins the first user turn",
    )
    .option('--config <file>', 'config file (default ./medbench.config.{json,mjs,js})')
    .option(
      '--context-window <tokens>',
      "the model's context window",
      integer('--context-window', { min: 1 }),
    )
    .option('--tokenizer <name>', "tokenizer counting the model's prompts (too_long check)")
    .addOption(
      new Option(
        '--count-tokens <how>',
        "too_long by the model's tokenizer (default; without one, an o200k estimate with a warning) or by the provider's own count route (endpoint: Anthropic, Bedrock, Gemini, Vertex AI, vLLM)",
      ).choices(['tokenizer', 'endpoint']),
    )
    .option(
      '--concurrency <n>',
      'requests in flight per endpoint',
      integer('--concurrency', { min: 1, max: 1024 }),
    )
    .option(
      '--api-key-env <name>',
      'environment variable holding the API key',
      checked((value) => parseEnvironmentName('--api-key-env', value)),
    )
    .option('--completions', 'a base model: send plain-text prompts to /completions instead of chat messages')
    .option(
      '--temperature <t>',
      'sampling temperature, 0 to 2 (default 0)',
      decimal('--temperature', { min: 0, max: 2 }),
    )
    .option(
      '--max-output-tokens <n>',
      `output token limit (default: the model's maxOutputTokens in the config, else ${options.outputLimit ?? '500'})`,
      integer('--max-output-tokens', { min: 1 }),
    )
    .option(
      '--restricted',
      "the data is restricted (credentialed): send it only to endpoints approved for it (in-process models, servers on this machine, or endpoints with restrictedDataApproved in the config). CLUE's MIMIC-derived tasks always are",
    );
}

/** How hard to try per request and per sample. */
export function retryOptions(command: Command, options: { forRuns?: boolean } = {}): Command {
  if (options.forRuns !== false)
    command
      .option(
        '--dry-run',
        'run --dataset: print per task the samples, prompt tokens and output limits left to send and the most they may cost; send and store nothing',
      )
      .option(
        '--shard <i/n>',
        "run --dataset, run clue: this machine's share of the run (samples split by a hash of their ids); `medbench merge` joins the shards' stores into one",
        checked(parseShard),
      );
  return command
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
      '--max-cost <amount>',
      "stop before a request could take the run's cost past this (the model's config prices; each request counted at its prompt tokens and full output limit); re-run with a higher cap to go on",
      decimal('--max-cost', { min: 0 }),
    );
}

/** MedEureka's options of `medbench run medeureka` (embedding models and retrievers). */
function medeurekaOptions(command: Command): Command {
  return command
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
    .option('--no-embedding-cache', 'medeureka: do not read or write the embedding cache');
}

/** `medbench run`: a built dataset, `run clue` or `run medeureka`. */
export function defineRun(program: Command, context: ProgramContext): void {
  const run = program
    .command('run [suite]')
    .description(
      'run a model on a benchmark and store every response and score: a built MedOdyssey dataset (`run --dataset <file>`), CLUE (`run clue --data <folder>`) or MedEureka (`run medeureka --data <folder>`, embedding models and retrievers). Exit code 0 when every sample was answered, 3 when some were not (re-run to retry them), 130 when stopped, 2 for a usage error, 1 otherwise',
    )
    .option('--dataset <file>', 'dataset file written by `medbench build`')
    .requiredOption(
      '--model <spec>',
      `a config name, ${specForms().join(', ')}; medeureka: an embedding model spec, bm25 or lsa`,
    );
  medeurekaOptions(retryOptions(modelOptions(clueOptions(run)))).action(
    action(async (suite: string | undefined, options, command: Command) => {
      // --no-system-role defaults to true; only a flag the user typed may override the config.
      if (command.getOptionValueSource('systemRole') !== 'cli') delete options.systemRole;
      const withHome = context.withHome(options);
      if (suite !== undefined && SUITE_RUNS[suite]) {
        if (!options.data)
          throw new MedbenchError({
            code: 'USAGE',
            message: `run ${suite} needs --data <${SUITE_RUNS[suite].data}>.`,
          });
        return SUITE_RUNS[suite].run(withHome, context.output);
      }
      if (suite !== undefined) {
        throw new MedbenchError({
          code: 'USAGE',
          message: `Unknown suite "${suite}".`,
          hint: `Use ${Object.keys(SUITE_RUNS)
            .map((name) => `\`run ${name} --data …\``)
            .join(', ')}, or \`run --dataset <file>\` for a built dataset.`,
        });
      }
      if (!options.dataset) {
        throw new MedbenchError({
          code: 'USAGE',
          message: 'run needs --dataset <file> (or `run clue --data <folder>`).',
        });
      }
      return runCommand(withHome, context.output);
    }),
  );
}
