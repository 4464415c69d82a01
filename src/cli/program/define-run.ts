import { type Command, Option } from 'commander';
import { countingProviders, specForms } from '../../compose/bind-model.js';
import { parseEpochReducer } from '../../compose/epoch-plan.js';
import { parseEnvironmentName } from '../../compose/parse-options.js';
import type { CommandOption, SuitePlugin } from '../../compose/suite-plugin.js';
import { MedbenchError } from '../../core/errors.js';
import { parseShardOption } from '../../runner/cluster-shard.js';
import { runCommand } from '../commands/run.js';
import { runSuiteCommand } from '../commands/run-suite.js';
import { commanderOption } from './commander-option.js';
import { action, checked, decimal, integer, type ProgramContext } from './program-context.js';

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
      .option('--task <tasks>', 'only these tasks of the dataset (a comma list)')
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
        `too_long by the model's tokenizer (default; without one, an o200k estimate with a warning) or by the provider's own count route (endpoint: ${countingProviders().join(', ')})`,
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

/** `--no-prompt-cache`: of every command that sends a model requests through the runner. */
export function promptCacheOption(command: Command): Command {
  return command.option(
    '--no-prompt-cache',
    "send no prompt cache hints: no cache breakpoints (Anthropic, Bedrock) and no prompt_cache_key (OpenAI, Azure); a provider's automatic caching (OpenAI's, vLLM's) cannot be turned off by a client. Prompts, answers and scores are the same either way",
  );
}

/** `--epochs K` and `--epoch-reducer`: each sample answered K times, and how its K scores become one (docs/epochs.md). */
export function epochOptions(command: Command): Command {
  return command
    .option(
      '--epochs <k>',
      'answer each sample k times (default 1), each stored as a result of its own and cached per epoch: a provider seed per epoch where it takes one (openai-compatible, gemini, ollama …), else it needs --temperature above 0; a run of its own, and --dry-run and cost estimates count every epoch',
      integer('--epochs', { min: 1, max: 1000 }),
    )
    .option(
      '--epoch-reducer <reducer>',
      "how a sample's epoch scores become its score: mean, majority, max or pass@k (unbiased; an epoch passes with score 1); default: each task's own (majority for right-or-wrong tasks, else mean); the report names it",
      checked(parseEpochReducer),
    );
}

/** How hard to try per request and per sample. */
export function retryOptions(command: Command, options: { forRuns?: boolean } = {}): Command {
  if (options.forRuns !== false)
    command
      .option(
        '--dry-run',
        'print per task what the run would send and the most it may cost (a chat model: the samples, prompt tokens and output limits left; a computation such as a baseline: the items left; an embedding model: the texts it would be sent); send and store nothing',
      )
      .option(
        '--batch',
        "send the requests through the provider's batch API (openai, azure-openai, anthropic, gemini: half price, answered within 24 hours); each batch is kept in the store, waited for with a progress line, and a re-run after Ctrl-C or a crash picks it up without submitting anything twice (docs/batch-mode.md)",
      )
      .option(
        '--batch-poll-ms <ms>',
        '--batch: the longest wait between two looks at a running batch (default 60000)',
        integer('--batch-poll-ms', { min: 1 }),
      )
      .option(
        '--shard <i/n|auto>',
        "this machine's share of the run (its items split by a hash of their ids; a ranked query is still ranked against the whole corpus); `auto`: the index and count of the Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with MEDBENCH_SHARD_COUNT set to its completions) or Slurm array (SLURM_ARRAY_TASK_*) it runs in; `medbench merge` joins the shards' stores into one",
        checked((text) => parseShardOption(text, process.env)),
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

/** `medbench run`: a built dataset (`--dataset`), or a suite's own run (`run <suite> --data`). */
export function defineRun(program: Command, context: ProgramContext): void {
  const { plugins } = context;
  const run = program
    .command('run [suite]')
    .description(
      `run a model on a benchmark and store every response and score: a dataset file \`medbench build\` wrote (\`run --dataset <file>\`), or a suite's own run from its official files (\`run <suite> --data <folder>\`: ${suiteRunNames(plugins).join(', ')}). Exit code 0 when every sample was answered, 3 when some were not (re-run to retry them), 130 when stopped, 2 for a usage error, 1 otherwise`,
    );
  runSourceOptions(
    run,
    plugins,
    "only the first n items of each task, in the suite's order (a ranked query still against the whole corpus); a run of its own, and its report says it was limited",
  ).requiredOption(
    '--model <spec>',
    [
      `a config name, ${specForms().join(', ')}`,
      ...plugins.flatMap((plugin) =>
        plugin.run?.model ? [`${plugin.suite.name}: ${plugin.run.model}`] : [],
      ),
    ].join('; '),
  );
  closedBookOption(run);
  suiteRunOptions(epochOptions(promptCacheOption(retryOptions(modelOptions(run)))), plugins).action(
    action(async (suite: string | undefined, options, command: Command) => {
      // --no-system-role defaults to true; only a flag the user typed may override the config.
      if (command.getOptionValueSource('systemRole') !== 'cli') delete options.systemRole;
      const withHome = context.withHome(options);
      const definition = plugins.find((entry) => entry.suite.name === suite)?.run;
      if (definition) {
        if (!options.data)
          throw new MedbenchError({
            code: 'USAGE',
            message: `run ${suite} needs --data <${definition.data}>.`,
          });
        if (options.closedBook)
          throw new MedbenchError({
            code: 'USAGE',
            message: `run ${suite}: --closed-book is for a built dataset (\`run --dataset <file> --closed-book\`).`,
          });
        if (options.dataset)
          throw new MedbenchError({
            code: 'USAGE',
            message: `run ${suite} builds its items from --data; --dataset is for a built dataset file (\`run --dataset <file>\`, without a suite).`,
          });
        return runSuiteCommand(suite as string, withHome, { output: context.output, plugins });
      }
      if (suite !== undefined) {
        throw new MedbenchError({
          code: 'USAGE',
          message: `Unknown suite "${suite}".`,
          hint: `Use ${suiteRunNames(plugins)
            .map((name) => `\`run ${name} --data …\``)
            .join(', ')}, or \`run --dataset <file>\` for a built dataset.`,
        });
      }
      if (!options.dataset) {
        throw new MedbenchError({
          code: 'USAGE',
          message: `run needs --dataset <file> (or ${suiteRunNames(plugins)
            .map((name) => `\`run ${name} --data <folder>\``)
            .join(', ')}).`,
        });
      }
      return runCommand(withHome, context.output);
    }),
  );
}

/** `run --closed-book`: a built dataset's questions without their context (the suite's `closedBook`). */
function closedBookOption(command: Command): Command {
  return command.option(
    '--closed-book',
    "a built dataset (--dataset): ask each question without its context — same instruction, question and answer format — to see what a model answers from memory (MedOdyssey: NIAH, KG, Term, Table, Case; Counting left out); a run of its own, its short prompts counted by the model's tokenizer (--dry-run, --max-cost); the report pairs it with the model's run with context",
  );
}

/** What a run is made of: `--dataset` or a suite's `--data`, and `--limit` (`limit`: its help). */
export function runSourceOptions(command: Command, plugins: readonly SuitePlugin[], limit: string): Command {
  return command
    .option('--dataset <file>', 'dataset file written by `medbench build`')
    .option('--data <folder>', `${suiteRunNames(plugins).join(', ')}: the folder with the official files`)
    .option('--limit <n>', limit, integer('--limit', { min: 1 }));
}

/** The suites whose run builds its items from `--data`. */
export function suiteRunNames(plugins: readonly SuitePlugin[]): string[] {
  return plugins.filter((plugin) => plugin.run).map((plugin) => plugin.suite.name);
}

/**
 * Each suite's own options of `run`, once per flag: a flag two suites declare is one option,
 * its help naming what it means to each.
 */
export function suiteRunOptions(command: Command, plugins: readonly SuitePlugin[]): Command {
  const byFlags = new Map<string, CommandOption[]>();
  for (const plugin of plugins)
    for (const option of plugin.run?.options ?? [])
      byFlags.set(option.flags, [
        ...(byFlags.get(option.flags) ?? []),
        { ...option, description: `${plugin.suite.name}: ${option.description}` },
      ]);
  for (const [, declared] of byFlags)
    command.addOption(
      commanderOption({
        ...declared[0]!,
        description: declared.map((option) => option.description).join('; '),
      }),
    );
  return command;
}
