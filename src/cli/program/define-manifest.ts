import type { Command } from 'commander';
import { exportManifestCommand, rerunCommand } from '../commands/manifest.js';
import { verbCommand } from './define-suite-commands.js';
import { action, type ProgramContext } from './program-context.js';

/** `medbench export manifest <run>` and `medbench rerun <manifest>`. */
export function defineManifest(program: Command, context: ProgramContext): void {
  verbCommand(program, 'export')
    .command('manifest <run>')
    .description(
      "write a run's manifest (docs/manifests.md): medbench's version and commit, the suite, tasks and protocol, its input files' and prompts' SHA-256, the templates', tokenizer, chat template, generation settings as sent, provider and the model versions it returned, seeds, restricted-data level; `medbench rerun` runs it again",
    )
    .option('--out <file>', 'the JSON file to write (default: standard output)')
    .action(
      action((name: string, options: { out?: string }) =>
        exportManifestCommand(
          name,
          { ...context.withHome(options), plugins: context.plugins },
          context.output,
        ),
      ),
    );
  program
    .command('rerun <manifest>')
    .description(
      "run a manifest's run again: its options as recorded, every input file checked against the manifest's SHA-256 and every prompt rebuilt and checked against its hash before anything is sent (a clear error naming what differs), then run as `run` does (cache, resume). Exit codes as `run`'s",
    )
    .option('--model <spec>', "another model for the same prompts (default: the manifest's)")
    .option('--config <file>', 'the medbench.config.json that names the model')
    .option('--label <name>', "the run's label in reports")
    .option(
      '--data <folder>',
      "where the suite's official files are on this machine (a `run <suite>` manifest)",
    )
    .option('--dataset <file>', 'where the dataset file is on this machine (a `run --dataset` manifest)')
    .action(
      action((manifest: string, options) =>
        rerunCommand(context.withHome({ ...options, manifest }), {
          output: context.output,
          plugins: context.plugins,
        }),
      ),
    );
}
