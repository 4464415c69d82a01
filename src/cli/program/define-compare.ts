import type { Command } from 'commander';
import { compareCommand } from '../commands/compare.js';
import { action, integer, type ProgramContext } from './program-context.js';

/** `medbench compare RUN_A RUN_B`: two runs of one suite, task by task, with paired tests. */
export function defineCompare(program: Command, context: ProgramContext): void {
  const suites = context.plugins.map((plugin) => plugin.suite);
  program
    .command('compare <runA> <runB>')
    .description(
      "two runs of one suite, task by task and overall: B − A with its paired-bootstrap interval, McNemar's exact test for 0/1 scores, Holm-adjusted p, the smallest detectable difference (runs named as report names them: label, label#id or an id prefix)",
    )
    .option(
      '--metric <metric>',
      "the metric the tasks are read under (MedOdyssey: esm or ssm; default the suite's first)",
    )
    .option('--json', 'one machine-readable JSON document (schemas/compare.schema.json)')
    .option(
      '--bootstrap-resamples <B>',
      'bootstrap resamples (default 1000), as report takes them',
      integer('--bootstrap-resamples', { min: 1 }),
    )
    .option(
      '--seed <n>',
      'bootstrap seed (default: the fixed seed every report uses)',
      integer('--seed', { min: 0 }),
    )
    .action(
      action((runA: string, runB: string, options) =>
        compareCommand({ a: runA, b: runB }, { ...context.withHome(options), suites }, context.output),
      ),
    );
}
