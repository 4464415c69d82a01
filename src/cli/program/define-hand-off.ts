import { type Command, Option } from 'commander';
import { REQUEST_FORMATS } from '../../compose/export-requests.js';
import { MedbenchError } from '../../core/errors.js';
import { parseShard } from '../../runner/shard.js';
import { exportRequestsCommand, importResponsesCommand } from '../commands/hand-off.js';
import {
  epochOptions,
  modelOptions,
  retryOptions,
  runSourceOptions,
  suiteRunNames,
  suiteRunOptions,
} from './define-run.js';
import { verbCommand } from './define-suite-commands.js';
import { action, checked, type ProgramContext } from './program-context.js';

/**
 * `medbench export requests` and `medbench import responses`: a run's requests handed to an
 * engine as OpenAI batch JSONL, and its answers taken back into the response cache.
 */
export function defineHandOff(program: Command, context: ProgramContext): void {
  const { plugins } = context;
  const exported = verbCommand(program, 'export')
    .command('requests [suite]')
    .description(
      `write every request a run would send (the run \`run\` makes with the same options: \`--dataset <file>\`, or a suite and --data: ${suiteRunNames(plugins).join(', ')}) as OpenAI batch JSONL keyed by its response cache key, for vllm run-batch, Ray Data LLM or LiteLLM's batch endpoint to answer; samples done, cached or too long are left out. Nothing is sent`,
    )
    .requiredOption('--out <file>', 'the JSONL file to write')
    .addOption(
      new Option('--format <format>', 'the file format').choices(REQUEST_FORMATS).default(REQUEST_FORMATS[0]),
    );
  runSourceOptions(exported, plugins, 'only the first n items of each task (as `run --limit`)')
    .option('--shard <i/n>', "this machine's share of the run (as `run --shard`)", checked(parseShard))
    .requiredOption(
      '--model <spec>',
      "the run's model, an OpenAI-style chat endpoint: a config name, openai-compatible:<model>@<base URL>, openai:<model> (an azure-openai config entry too)",
    );
  suiteRunOptions(epochOptions(retryOptions(modelOptions(exported), { forRuns: false })), plugins).action(
    action(async (suite: string | undefined, options, command: Command) => {
      // --no-system-role defaults to true; only a flag the user typed may override the config.
      if (command.getOptionValueSource('systemRole') !== 'cli') delete options.systemRole;
      const known = plugins.find((plugin) => plugin.suite.name === suite)?.run;
      if (suite !== undefined && !known)
        throw new MedbenchError({
          code: 'USAGE',
          message: `Unknown suite "${suite}".`,
          hint: `Use ${suiteRunNames(plugins).join(', ')} with --data, or --dataset <file> without a suite.`,
        });
      if (known ? !options.data || options.dataset : !options.dataset)
        throw new MedbenchError({
          code: 'USAGE',
          message: known
            ? `export requests ${suite} needs --data <${known.data}> (and no --dataset), as its run does.`
            : 'export requests needs --dataset <file> (or a suite and --data <folder>), as `run` does.',
        });
      await exportRequestsCommand(suite, context.withHome(options), context);
    }),
  );
  verbCommand(program, 'import')
    .command('responses <file>')
    .description(
      'take the output of an engine that answered `medbench export requests` (OpenAI batch output JSONL) into the response cache; the run with the same options then sends nothing. Exit code 3 when some lines failed (they are not cached)',
    )
    .action(
      action((file: string, options) =>
        importResponsesCommand(file, context.withHome(options), context.output),
      ),
    );
}
