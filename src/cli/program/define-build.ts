import { type Command, Option } from 'commander';
import { buildMedOdysseyCommand } from '../commands/build-medodyssey.js';
import { action, type ProgramContext } from './program-context.js';

/** `medbench build medodyssey`. */
export function defineBuild(program: Command, context: ProgramContext): void {
  const build = program
    .command('build')
    .description('build a benchmark dataset file from an official release');
  build
    .command('medodyssey')
    .description(
      'build MedOdyssey samples into a JSONL dataset: NIAH and Counting from the release (--data), KG, Term, Table and Case from your sources (--sources)',
    )
    .option('--data <folder>', 'NIAH/Counting: the official release (repository root or its dataset/ folder)')
    .option('--sources <folder>', 'KG/Term/Table/Case: your knowledge sources (docs/medodyssey-sources.md)')
    .requiredOption('--out <file>', 'dataset file to write (JSONL)')
    .addOption(
      new Option('--task <tasks>', 'niah, counting, kg, term, table, case (comma list) or all').default(
        'all',
      ),
    )
    .option('--kg-questions <n>', 'KG questions to generate per language (default 100)')
    .option(
      '--prompts <file>',
      "KG/Term/Table/Case prompt templates in the release's prompt.json layout (default: --data's prompt.json, else --sources')",
    )
    .addOption(new Option('--lang <languages>', 'en, zh, en,zh or all').default('all'))
    .option('--levels <list>', "token levels, e.g. 4k,8k (default: the paper's seven, 4k to 200k)")
    .option('--depths <list>', 'needle depths in percent (default 0,25,50,75,100)')
    .option('--needles <ids>', 'only these needle ids')
    .addOption(
      new Option('--mic <mode>', 'maximum identical context: ratio (paper), exact or per-model')
        .choices(['ratio', 'exact', 'per-model'])
        .default('ratio'),
    )
    .option('--gamma-en <ratio>', 'ratio mode: tokens per character for en (default 0.36)')
    .option('--gamma-zh <ratio>', 'ratio mode: tokens per character for zh (default 1.41)')
    .addOption(
      new Option(
        '--tokenizers <names>',
        'tokenizers or model names to count (and, for exact/per-model, fit) with',
      ).default('o200k_base'),
    )
    .addOption(
      new Option('--haystack <kind>', 'medical (published) or generic haystack')
        .choices(['medical', 'generic'])
        .default('medical'),
    )
    .option('--counting-types <types>', 'repeat,increase,shuffle,correction (default all four)')
    .addOption(
      new Option('--counting-sentences <range>', 'number k of counting sentences, N or MIN-MAX').default(
        '6-20',
      ),
    )
    .option(
      '--counting-draws <file>',
      "Counting: the published random choices (the shared data's counting-draws.json, or a file of that shape) instead of seeded ones; rebuilds the published prompts byte for byte",
    )
    .option(
      '--counting-from-published <folder>',
      "Counting: take the published zh prompts as they are from a release's evaluation_result/",
    )
    .addOption(new Option('--seed <seed>', 'seed of every random choice').default('medbench'))
    .option(
      '--verify-counts',
      'exact and per-model MIC: also tokenize every final prompt in full and check the token count derived from the haystack prefix sums (slower; reports any mismatch)',
    )
    .action(action((options) => buildMedOdysseyCommand(options, context.output)));
}
