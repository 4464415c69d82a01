import { type Command, Option } from 'commander';
import { listTokenizers } from '../../tokenizers/registry.js';
import { demoCommand } from '../commands/demo.js';
import { mergeCommand } from '../commands/merge.js';
import { providersCommand } from '../commands/providers.js';
import { reportCommand, textMetricChoices } from '../commands/report.js';
import { viewCommand } from '../commands/view.js';
import { addEffectiveLengthOptions } from './effective-length-options.js';
import { addIntervalOptions } from './interval-options.js';
import { action, integer, type ProgramContext } from './program-context.js';
import { reviewQueueOptions } from './review-options.js';

/** `medbench demo`, `view`, `report`, `providers` and `tokenizers`. */
export function defineTools(program: Command, context: ProgramContext): void {
  const suites = context.plugins.map((plugin) => plugin.suite);
  program
    .command('demo')
    .description(
      'build NIAH and Counting from the shipped sample data, run the extractive baseline, print and save the report',
    )
    .action(action(() => demoCommand(context.withHome({}), context.plugins, context.output)));
  defineView(program, context);

  const report = program
    .command('report')
    .description('print stored results as tables (or --json, --csv, --html)')
    .addOption(
      new Option('--suite <suite>', suites.map((suite) => suite.name).join(', '))
        .choices(suites.map((suite) => suite.name))
        .default(suites[0]!.name),
    )
    .option('--run <ids...>', 'only these runs (id prefixes)')
    .option('--model <labels...>', 'only these model labels')
    .addOption(
      new Option('--metric <metric>', `${textMetricChoices(suites).join(' or ')} (default all)`).choices(
        textMetricChoices(suites),
      ),
    )
    .option('--json', 'one machine-readable JSON document')
    .addOption(
      new Option(
        '--csv <folder>',
        'each table as a CSV file in this folder (their paths on stdout)',
      ).conflicts('json'),
    )
    .option(
      '--html <file|folder>',
      'a .html file: one self-contained report; a folder: the viewer as a static site',
    )
    .option('--base <label>', 'compare every other model with this one (CLUE, Figure 5)')
    .option('--table <name>', 'text: only the tables whose title holds this (e.g. "Table 2", En.NIAH, cost)')
    .option(
      '--width <columns>',
      "text: split wider tables by columns (default: the terminal's width, 100 when not a terminal; 0: no limit)",
      integer('--width', { min: 0 }),
    );
  addEffectiveLengthOptions(addIntervalOptions(report)).action(
    action((options) => reportCommand({ ...context.withHome(options), suites }, context.output)),
  );

  program
    .command('providers')
    .description('list the chat providers: how to name each, and what each can do')
    .option('--json', 'one JSON array: name, spec form, sign-in and declared capabilities of each')
    .action((options: { json?: boolean }) => providersCommand(context.output, options));
  program
    .command('tokenizers')
    .description('list the tokenizers medbench can count with')
    .option('--json', 'one JSON array: name, description and whether it can cut text, of each')
    .action((options: { json?: boolean }) => {
      if (options.json) {
        context.output.stdout(`${JSON.stringify(listTokenizers(), null, 2)}\n`);
        return;
      }
      for (const { name, description, cuts } of listTokenizers())
        context.output.stdout(
          `${name.padEnd(14)} ${description}${cuts ? '' : ' (counts only: cannot cut text)'}\n`,
        );
    });
}

/** `medbench merge`: other stores (a run's shards) into this home's. */
export function defineMerge(program: Command, context: ProgramContext): void {
  program
    .command('merge <stores...>')
    .description(
      "merge other stores (home folders or medbench.sqlite files) into this home's: the shards of a run (`run --shard i/n`) become one run, reported as if run on one machine",
    )
    .action(
      action((stores: string[], options) =>
        mergeCommand(
          {
            ...context.withHome({ ...options, sources: stores }),
            suites: context.plugins.map((plugin) => plugin.suite),
          },
          context.output,
        ),
      ),
    );
}

/** `medbench view`: the viewer, and with --reviewer its review page's grading (docs/review.md). */
function defineView(program: Command, context: ProgramContext): void {
  const view = program
    .command('view')
    .description(
      'a local web viewer over the store (read-only, but for grades given with --reviewer; binds 127.0.0.1)',
    )
    .option('--port <port>', 'port (default: a free one)', integer('--port', { min: 0, max: 65535 }))
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; anything else is reachable from your network)',
    )
    .option('--reviewer <name>', 'grade answers on the review page as NAME (docs/review.md)');
  reviewQueueOptions(view, {
    share: true,
    rubric: 'a rubric file replacing the shipped one of its task for review; repeat for several tasks',
  }).action(
    action((options) =>
      viewCommand(
        { ...context.withHome(options), suites: context.plugins.map((plugin) => plugin.suite) },
        context.output,
      ),
    ),
  );
}
