import type { Command } from 'commander';
import type { SuiteCommand, SuiteCommandVerb, SuitePlugin } from '../../compose/suite-plugin.js';
import { terminalSession } from '../run-session.js';
import { commanderOption } from './commander-option.js';
import { modelOptions, promptCacheOption, retryOptions } from './define-run.js';
import { action, type ProgramContext } from './program-context.js';

/** What each generic verb does, whichever suite's commands hang under it. */
const VERBS: Readonly<Record<SuiteCommandVerb, string>> = {
  build: 'build a benchmark dataset file from an official release',
  import: "import published model outputs, or an engine's answers to a run's exported requests",
  export: "export data derived from a benchmark, or a run's requests for an engine to answer",
  generate: "build a benchmark's data from your own files, as its authors' scripts do",
  rescore: 'score a stored run again with resources computed elsewhere',
};

/** The verb's command (`medbench build`), made once. */
export function verbCommand(program: Command, verb: SuiteCommandVerb): Command {
  return (
    program.commands.find((command) => command.name() === verb) ??
    program.command(verb).description(VERBS[verb])
  );
}

function defineSuiteCommand(program: Command, declared: SuiteCommand, context: ProgramContext): void {
  const parent = declared.verb ? verbCommand(program, declared.verb) : program;
  const command = parent
    .command([declared.name, ...(declared.arguments ?? [])].join(' '))
    .description(declared.description);
  for (const option of declared.options) command.addOption(commanderOption(option));
  if (declared.modelOptions) {
    const forRuns = { forRuns: false };
    promptCacheOption(retryOptions(modelOptions(command, { ...forRuns, ...declared.modelOptions }), forRuns));
  }
  command.action(
    action(async (...args: unknown[]) => {
      const invoked = args.at(-1) as Command;
      const options = args.at(-2) as Record<string, unknown>;
      // --no-system-role defaults to true; only a flag the user typed may override the config.
      if (declared.modelOptions && invoked.getOptionValueSource('systemRole') !== 'cli')
        delete options.systemRole;
      await declared.run(
        { arguments: args.slice(0, -2) as string[], options: context.withHome(options) },
        { output: context.output, session: () => terminalSession(context.output) },
      );
    }),
  );
}

/** Every command the suites bring, under its verb or at the top level. */
export function defineSuiteCommands(
  program: Command,
  plugins: readonly SuitePlugin[],
  context: ProgramContext,
): void {
  for (const plugin of plugins)
    for (const command of plugin.commands) defineSuiteCommand(program, command, context);
}
