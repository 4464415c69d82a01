import type { Command } from 'commander';
import { exportGradesCommand, importGradesCommand } from '../commands/grades.js';
import { verbCommand } from './define-suite-commands.js';
import { action, integer, type ProgramContext } from './program-context.js';
import { reviewQueueOptions } from './review-options.js';

/** `medbench export grades` and `medbench import grades`: people's grades of free-text answers as CSV (docs/grades-csv.md). */
export function defineGrades(program: Command, context: ProgramContext): void {
  const suites = context.plugins.map((plugin) => plugin.suite);
  const exportGrades = verbCommand(program, 'export')
    .command('grades')
    .description(
      "write people's grades of free-text answers (the viewer's review, import grades) as CSV: one row per grade (each reviewer's current one; --history every edit too) with the item's blinded token and a column per rubric criterion; or, with --blank, a grading sheet of a reviewer's next queue items for a spreadsheet (docs/grades-csv.md)",
    )
    .option('--task <task>', 'only this task, or a comma list (with --blank: the one task of the sheet)')
    .option('--run <id...>', 'only grades of these runs (label, label#id or an id prefix)')
    .option('--history', 'every grade, edits included (default: current grades)')
    .option('--out <file>', 'the CSV file to write (default: standard output)')
    .option(
      '--blank',
      "a blank grading sheet: the reviewer's next items, blinded, with input, reference and answer",
    )
    .option('--reviewer <name>', 'whose sheet (--blank)')
    .option('--limit <n>', 'items on the sheet (--blank; default 50)', integer('--limit', { min: 1 }));
  reviewQueueOptions(exportGrades, {
    share: true,
    rubric: "a rubric file replacing the shipped one of its task (--blank: the sheet's criteria; repeatable)",
  })
    .option(
      '--restricted-ok',
      'the sheet may hold restricted text (a MIMIC-derived task, or a run made with --restricted): you keep the file as the data-use agreement requires',
    )
    .action(
      action((options) => exportGradesCommand(context.withHome(options), { output: context.output, suites })),
    );
  const importGrades = verbCommand(program, 'import')
    .command('grades <file>')
    .description(
      'add the grades of a CSV file (export grades, or a filled grading sheet): every row checked first, nothing added unless all are good; a grade already stored is skipped, so importing a file twice adds nothing',
    )
    .option('--reviewer <name>', 'the reviewer of rows whose reviewer cell is blank');
  reviewQueueOptions(importGrades, {
    share: false,
    rubric: 'a rubric file the grades were made by, replacing the shipped one of its task (repeatable)',
  }).action(
    action((file: string, options) =>
      importGradesCommand(file, context.withHome(options), { output: context.output, suites }),
    ),
  );
}
