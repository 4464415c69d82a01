import { type Command, Option } from 'commander';
import { LOG_FORMATS } from '../../compose/export-logs.js';
import { exportSuiteLogsCommand } from '../commands/export-suite-logs.js';
import { exportLogsCommand, importLogsCommand } from '../commands/logs.js';
import { verbCommand } from './define-suite-commands.js';
import { action, type ProgramContext } from './program-context.js';

/**
 * `medbench export logs` and `medbench import logs`: stored runs as standard logs other tools
 * read (Every Eval Ever records, Inspect eval logs, and each plugin's own formats such as MedEureka's
 * MTEB TaskResults), and EEE records read back.
 */
export function defineLogs(program: Command, context: ProgramContext): void {
  const suites = context.plugins.map((plugin) => plugin.suite);
  const suiteFormats = context.plugins.flatMap((plugin) => plugin.logFormats ?? []);
  verbCommand(program, 'export')
    .command('logs')
    .description(
      `write stored runs as standard logs: Every Eval Ever aggregate and instance records (--format eee, the datastore's data/<benchmark>/<developer>/<model>/<uuid>.json layout) or Inspect AI eval logs (--format inspect, one .json log per run and task, for \`inspect view\`)${suiteFormats.map((format) => `, ${format.description} (--format ${format.name})`).join('')}. The text of restricted data (CLUE's MIMIC-derived tasks, a dataset file whose header says restricted; every run with --restricted) is withheld`,
    )
    .addOption(
      new Option('--format <format>', 'the log format')
        .choices([...LOG_FORMATS, ...suiteFormats.map((format) => format.name)])
        .makeOptionMandatory(),
    )
    .requiredOption('--out <folder>', 'the folder to write the logs in')
    .option('--suite <suite>', `only this suite's runs (${suites.map((suite) => suite.name).join(', ')})`)
    .option('--run <id...>', 'only these runs (ids or id prefixes)')
    .option('--model <labels...>', "only these model labels (a suite's own formats)")
    .option(
      '--restricted',
      "withhold every run's text (for runs stored before manifests recorded --restricted, or imported)",
    )
    .action(
      action((options) => {
        const suiteFormat = suiteFormats.find((format) => format.name === options.format);
        if (suiteFormat)
          return exportSuiteLogsCommand(context.withHome(options), suiteFormat, context.output);
        return exportLogsCommand(context.withHome(options), { output: context.output, suites });
      }),
    );
  verbCommand(program, 'import')
    .command('logs <path>')
    .description(
      'read back Every Eval Ever records `medbench export logs --format eee` wrote (an aggregate .json beside its _samples.jsonl, or a folder of them) into the store: the same runs, the same report',
    )
    .addOption(new Option('--format <format>', 'the log format').choices(['eee']).makeOptionMandatory())
    .action(
      action((path: string, options) =>
        importLogsCommand(path, context.withHome(options), { output: context.output, suites }),
      ),
    );
}
