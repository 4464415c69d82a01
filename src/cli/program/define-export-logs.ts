import { type Command, Option } from 'commander';
import { LOG_FORMATS } from '../../compose/log-formats.js';
import { exportLogsCommand } from '../commands/export-logs.js';
import { verbCommand } from './define-suite-commands.js';
import { action, type ProgramContext } from './program-context.js';

/** `medbench export logs --format <format>`: stored runs as files other tools read, in every format the program knows. */
export function defineExportLogs(program: Command, context: ProgramContext): void {
  // The generic formats, then each plugin's own.
  const formats = [...LOG_FORMATS, ...context.plugins.flatMap((plugin) => plugin.logFormats ?? [])];
  if (formats.length === 0) return;
  verbCommand(program, 'export')
    .command('logs')
    .description(
      `write stored runs as files other tools read: ${formats.map((format) => `${format.name}, ${format.description}`).join('; ')}`,
    )
    .addOption(
      new Option('--format <format>', 'the format')
        .choices(formats.map((format) => format.name))
        .makeOptionMandatory(),
    )
    .requiredOption('--out <folder>', 'the folder to write into (made if missing)')
    .option('--run <ids...>', 'only these runs (id prefixes)')
    .option('--model <labels...>', 'only these model labels')
    .action(action((options) => exportLogsCommand(context.withHome(options), formats, context.output)));
}
