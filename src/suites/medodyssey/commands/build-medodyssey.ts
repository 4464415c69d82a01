import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  parseChoiceList,
  parseNumber,
  parseNumberList,
  parsePositiveNumber,
  parseRange,
} from '../../../compose/parse-options.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import { MedbenchError } from '../../../core/errors.js';
import type { Sample } from '../../../core/sample.js';
import type { Tokenizer } from '../../../core/tokenizer.js';
import { writeDataset } from '../../../runner/dataset-file.js';
import { getTokenizer } from '../../../tokenizers/registry.js';
import { VERSION } from '../../../version.js';
import { buildMedOdysseyDataset, type MedOdysseyDatasetRequest } from '../build-dataset.js';
import { loadCountingDraws, shippedCountingDrawsFile } from '../counting-draws.js';
import { COUNTING_TYPES, DEFAULT_GAMMA, DEPTHS, LANGUAGES, LEVELS } from '../index.js';
import { resolveDatasetFolder } from '../release.js';
import { releaseFileHashes } from '../release-hashes.js';

export interface BuildMedOdysseyOptions {
  data?: string;
  /** Folder with KG/Term/Table/Case knowledge sources (docs/medodyssey-sources.md). */
  sources?: string;
  kgQuestions?: string;
  out: string;
  task: string;
  lang: string;
  levels?: string;
  depths?: string;
  needles?: string;
  mic: string;
  gammaEn?: string;
  gammaZh?: string;
  tokenizers: string;
  haystack: string;
  seed: string;
  countingTypes?: string;
  countingSentences: string;
  /** A draws file, or `true` (the flag without a file): the shipped published draws. */
  countingDraws?: string | true;
  verifyCounts?: boolean;
  countingFromPublished?: string;
  /** KG/Term/Table/Case prompt templates (prompt.json); default: the release's, else the sources'. */
  prompts?: string;
}

/**
 * The KG/Term/Table/Case prompt templates: --prompts, else the release's prompt.json (--data),
 * else a prompt.json in the sources folder.
 */
function promptsFile(options: BuildMedOdysseyOptions): string {
  if (options.prompts) return resolve(options.prompts);
  const candidates = [
    ...(options.data ? [join(resolveDatasetFolder(resolve(options.data)), 'prompt.json')] : []),
    ...(options.sources ? [join(resolve(options.sources), 'prompt.json')] : []),
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `KG, Term, Table and Case need prompt templates; none of ${candidates.join(', ') || '--prompts'} exists.`,
      hint: "Pass the official release with --data (its prompt.json is read), or --prompts <file> in the release's prompt.json layout.",
    });
  }
  return found;
}

const ALL_TASKS = ['niah', 'counting', 'kg', 'term', 'table', 'case'] as const;

/** Which tasks to build, from which inputs; every missing input is a usage error here. */
function taskPlan(options: BuildMedOdysseyOptions) {
  const requested =
    options.task === 'all'
      ? options.sources
        ? [...ALL_TASKS]
        : (['niah', 'counting'] as const)
      : parseChoiceList('--task', options.task, ALL_TASKS);
  const tasks = requested.filter(
    (task): task is 'niah' | 'counting' => task === 'niah' || task === 'counting',
  );
  const medicalTasks = requested.filter(
    (task): task is 'kg' | 'term' | 'table' | 'case' => task !== 'niah' && task !== 'counting',
  );
  const fromPublished = options.countingFromPublished !== undefined && tasks.includes('counting');
  const builtTasks = fromPublished ? tasks.filter((task) => task !== 'counting') : tasks;
  if (builtTasks.length > 0 && !options.data) {
    throw new MedbenchError({
      code: 'USAGE',
      message: 'NIAH and Counting need --data <official release folder>.',
    });
  }
  if (options.countingDraws && options.countingFromPublished) {
    throw new MedbenchError({
      code: 'USAGE',
      message:
        '--counting-draws and --counting-from-published exclude each other: rebuild the prompts, or take them as published.',
    });
  }
  if (medicalTasks.length > 0 && !options.sources) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `${medicalTasks.join(', ')} need --sources <folder with knowledge sources>.`,
      hint: 'See docs/medodyssey-sources.md for the file names and formats.',
    });
  }
  return { requested, medicalTasks, builtTasks, fromPublished };
}

/** The grid and fitting settings, each option parsed and checked. */
async function buildSettings(options: BuildMedOdysseyOptions) {
  const tokenizers: Tokenizer[] = [];
  for (const name of options.tokenizers
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    tokenizers.push(await getTokenizer(name));
  }
  const countingSentences = parseRange('--counting-sentences', options.countingSentences);
  if (countingSentences.min < 2 || countingSentences.max > 49) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `--counting-sentences ${options.countingSentences}: k must lie in 2 … 49 (a correction moves counts between sentences, and a group's counts sum to between 2k and 99).`,
    });
  }
  return {
    languages: options.lang === 'all' ? LANGUAGES : parseChoiceList('--lang', options.lang, LANGUAGES),
    mic: parseChoiceList('--mic', options.mic, ['ratio', 'exact', 'per-model'] as const)[0]!,
    haystack: parseChoiceList('--haystack', options.haystack, ['medical', 'generic'] as const)[0]!,
    tokenizers,
    levels: options.levels ? parseNumberList('--levels', options.levels, { min: 1 }) : LEVELS,
    gamma: {
      ...DEFAULT_GAMMA,
      ...(options.gammaEn ? { en: parsePositiveNumber('--gamma-en', options.gammaEn) } : {}),
      ...(options.gammaZh ? { zh: parsePositiveNumber('--gamma-zh', options.gammaZh) } : {}),
    },
    countingSentences,
    countingTypes: options.countingTypes
      ? parseChoiceList('--counting-types', options.countingTypes, COUNTING_TYPES)
      : COUNTING_TYPES,
  };
}

/** `--counting-draws <file>`, or the shipped published draws for `--counting-draws` alone; null without the flag. */
function countingDrawsPath(options: BuildMedOdysseyOptions): string | null {
  if (options.countingDraws === undefined) return null;
  return options.countingDraws === true ? shippedCountingDrawsFile() : resolve(options.countingDraws);
}

type BuildSettings = Awaited<ReturnType<typeof buildSettings>>;

/** The build request of the suite, from the command's options. */
function datasetRequest(
  options: BuildMedOdysseyOptions,
  plan: ReturnType<typeof taskPlan>,
  settings: BuildSettings,
): MedOdysseyDatasetRequest {
  const { languages, levels, mic, gamma, tokenizers, haystack, countingTypes } = settings;
  return {
    ...(plan.builtTasks.length > 0
      ? {
          release: {
            data: options.data!,
            tasks: plan.builtTasks,
            languages,
            levels,
            depths: options.depths
              ? parseNumberList('--depths', options.depths, { min: 0, max: 100 })
              : DEPTHS,
            countingTypes,
            mic,
            gamma,
            tokenizers,
            haystack,
            seed: options.seed,
            countingSentences: settings.countingSentences,
            ...(options.needles
              ? { needleIds: parseNumberList('--needles', options.needles, { min: 0 }) }
              : {}),
            ...(options.countingDraws
              ? { countingDraws: loadCountingDraws(countingDrawsPath(options)!) }
              : {}),
            ...(options.verifyCounts ? { verifyCounts: true } : {}),
          },
        }
      : {}),
    ...(plan.medicalTasks.length > 0
      ? {
          medical: {
            folder: resolve(options.sources!),
            tasks: plan.medicalTasks,
            kgQuestions: options.kgQuestions
              ? parseNumber('--kg-questions', options.kgQuestions, { min: 1, max: 100_000 })
              : 100,
            promptsFile: () => promptsFile(options),
          },
        }
      : {}),
    ...(plan.fromPublished
      ? { publishedCounting: { folder: resolve(options.countingFromPublished!), haystack, countingTypes } }
      : {}),
    languages,
    levels,
    mic,
    gamma,
    tokenizers,
    seed: options.seed,
  };
}

/** What the dataset header records of the build. */
function buildRecord(
  options: BuildMedOdysseyOptions,
  settings: BuildSettings,
  requested: readonly string[],
  prompts: string | null,
) {
  return {
    data: options.data ? resolve(options.data) : null,
    sources: options.sources ? resolve(options.sources) : null,
    tasks: requested,
    languages: settings.languages,
    mic: settings.mic,
    haystack: settings.haystack,
    seed: options.seed,
    gamma: { en: options.gammaEn ?? null, zh: options.gammaZh ?? null },
    countingSentences: options.countingSentences,
    countingDraws: countingDrawsPath(options),
    countingFromPublished: options.countingFromPublished ? resolve(options.countingFromPublished) : null,
    prompts,
    // The release files it could read, hashed: a run's manifest of the dataset carries them.
    files: releaseFileHashes({
      data: options.data,
      sources: options.sources,
      countingDraws: countingDrawsPath(options),
      prompts,
    }),
  };
}

/** The samples as they are made, each counted on the progress line (the task being built, the time so far). */
function* withProgress(samples: Iterable<Sample>, started: number, output: CommandOutput): Iterable<Sample> {
  let count = 0;
  for (const sample of samples) {
    count++;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    output.progress?.update(`build medodyssey: samples written ${count} (now ${sample.task}) · ${seconds} s`);
    yield sample;
  }
}

/** Builds the samples and writes them to `out`, each counted on the progress line. */
async function writeBuild(context: {
  options: BuildMedOdysseyOptions;
  plan: ReturnType<typeof taskPlan>;
  settings: BuildSettings;
  out: string;
  started: number;
  output: CommandOutput;
}) {
  const { options, plan, settings, output } = context;
  const build = await buildMedOdysseyDataset(datasetRequest(options, plan, settings));
  if (build.notices.length > 0) output.progress?.finish();
  for (const notice of build.notices) output.stderr(`${notice}\n`);
  const written = await writeDataset({
    path: context.out,
    header: {
      suite: 'medodyssey',
      createdAt: new Date().toISOString(),
      generator: `medbench ${VERSION}`,
      build: buildRecord(options, settings, plan.requested, build.record.prompts),
      tokenizers: settings.tokenizers.map((tokenizer) => tokenizer.name),
    },
    samples: withProgress(build.samples, context.started, output),
  });
  return { build, written };
}

/** `medbench build medodyssey`: writes the NIAH/Counting grid to a versioned JSONL dataset. */
export async function buildMedOdyssey(options: BuildMedOdysseyOptions, output: CommandOutput): Promise<void> {
  const plan = taskPlan(options);
  const settings = await buildSettings(options);
  const { mic, tokenizers } = settings;
  const started = Date.now();
  const out = resolve(options.out);
  output.progress?.update('build medodyssey: reading and counting the inputs', true);
  const { build, written } = await writeBuild({ options, plan, settings, out, started, output }).finally(() =>
    output.progress?.finish(),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  output.stdout(
    `Wrote ${written.count} samples to ${out} in ${seconds} s (mic ${mic}, tokenizers ${tokenizers.map((tokenizer) => tokenizer.name).join(', ')}).\n`,
  );
  for (const warning of build.warnings()) output.stderr(`${warning}\n`);
}

/** `medbench build medodyssey`, as the CLI declares it. */
export const buildMedOdysseyCommand: SuiteCommand = {
  verb: 'build',
  name: 'medodyssey',
  description:
    'build MedOdyssey samples into a JSONL dataset: NIAH and Counting from the release (--data), KG, Term, Table and Case from your sources (--sources)',
  options: [
    {
      flags: '--data <folder>',
      description: 'NIAH/Counting: the official release (repository root or its dataset/ folder)',
    },
    {
      flags: '--sources <folder>',
      description: 'KG/Term/Table/Case: your knowledge sources (docs/medodyssey-sources.md)',
    },
    { flags: '--out <file>', description: 'dataset file to write (JSONL)', required: true },
    {
      flags: '--task <tasks>',
      description: 'niah, counting, kg, term, table, case (comma list) or all',
      default: 'all',
    },
    { flags: '--kg-questions <n>', description: 'KG questions to generate per language (default 100)' },
    {
      flags: '--prompts <file>',
      description:
        "KG/Term/Table/Case prompt templates in the release's prompt.json layout (default: --data's prompt.json, else --sources')",
    },
    { flags: '--lang <languages>', description: 'en, zh, en,zh or all', default: 'all' },
    {
      flags: '--levels <list>',
      description: "token levels, e.g. 4k,8k (default: the paper's seven, 4k to 200k)",
    },
    { flags: '--depths <list>', description: 'needle depths in percent (default 0,25,50,75,100)' },
    { flags: '--needles <ids>', description: 'only these needle ids' },
    {
      flags: '--mic <mode>',
      description: 'maximum identical context: ratio (paper), exact or per-model',
      choices: ['ratio', 'exact', 'per-model'],
      default: 'ratio',
    },
    { flags: '--gamma-en <ratio>', description: 'ratio mode: tokens per character for en (default 0.36)' },
    { flags: '--gamma-zh <ratio>', description: 'ratio mode: tokens per character for zh (default 1.41)' },
    {
      flags: '--tokenizers <names>',
      description: 'tokenizers or model names to count (and, for exact/per-model, fit) with',
      default: 'o200k_base',
    },
    {
      flags: '--haystack <kind>',
      description: 'medical (published) or generic haystack',
      choices: ['medical', 'generic'],
      default: 'medical',
    },
    {
      flags: '--counting-types <types>',
      description: 'repeat,increase,shuffle,correction (default all four)',
    },
    {
      flags: '--counting-sentences <range>',
      description: 'number k of counting sentences, N or MIN-MAX',
      default: '6-20',
    },
    {
      flags: '--counting-draws [file]',
      description:
        'Counting: random choices from a file instead of seeded ones; without a file, the published zh draws medbench ships (assets/medodyssey/counting-draws.json), which rebuild the published prompts byte for byte',
    },
    {
      flags: '--counting-from-published <folder>',
      description: "Counting: take the published zh prompts as they are from a release's evaluation_result/",
    },
    { flags: '--seed <seed>', description: 'seed of every random choice', default: 'medbench' },
    {
      flags: '--verify-counts',
      description:
        'exact and per-model MIC: also tokenize every final prompt in full and check the token count derived from the haystack prefix sums (slower; reports any mismatch)',
    },
  ],
  run: (call, context) => buildMedOdyssey(call.options as unknown as BuildMedOdysseyOptions, context.output),
};
