import { Command, CommanderError } from 'commander';
import type { SuitePlugin } from '../compose/suite-plugin.js';
import { SUITE_PLUGINS } from '../compose/suites.js';
import type { CommandOutput } from '../core/command-output.js';
import { VERSION } from '../version.js';
import { defineCompare } from './program/define-compare.js';
import { defineGrades } from './program/define-grades.js';
import { defineHandOff } from './program/define-hand-off.js';
import { defineLogs } from './program/define-logs.js';
import { defineManifest } from './program/define-manifest.js';
import { defineRun } from './program/define-run.js';
import { defineSuiteCommands } from './program/define-suite-commands.js';
import { defineMerge, defineTools } from './program/define-tools.js';
import { addFlagAliases } from './program/flag-aliases.js';
import { type ProgramContext, printError } from './program/program-context.js';
import { showUsageHints } from './program/usage-hint.js';
import { progressLine } from './progress-bar.js';
import { EXIT } from './run-session.js';

export { printError } from './program/program-context.js';

const output: CommandOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: progressLine(process.stderr),
};

/** The medbench program; `plugins`: the suites it knows (a library user or a test may add its own). */
export function createProgram(options: { plugins?: readonly SuitePlugin[] } = {}): Command {
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
    );
  const context: ProgramContext = {
    output,
    plugins: options.plugins ?? SUITE_PLUGINS,
    withHome: (options) => {
      const home = program.opts<{ home?: string }>().home;
      return home ? { ...options, home } : options;
    },
  };
  defineTools(program, context);
  defineMerge(program, context);
  defineCompare(program, context);
  defineRun(program, context);
  defineSuiteCommands(program, context.plugins, context);
  defineHandOff(program, context);
  defineLogs(program, context);
  defineManifest(program, context);
  defineGrades(program, context);
  addFlagAliases(program);
  showUsageHints(program);
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
