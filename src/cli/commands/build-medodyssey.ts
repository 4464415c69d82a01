import { resolve } from 'node:path';
import type { Tokenizer } from '../../core/tokenizer.js';
import { writeDataset } from '../../runner/dataset-file.js';
import {
  COUNTING_TYPES,
  DEPTHS,
  LANGUAGES,
  LEVELS,
  prepareMedOdysseyBuild,
} from '../../suites/medodyssey/index.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import { VERSION } from '../../version.js';
import { parseChoiceList, parseNumberList, parsePositiveNumber, parseRange } from '../parse-options.js';

export interface BuildMedOdysseyOptions {
  data: string;
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
}

export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `medbench build medodyssey`: writes the NIAH/Counting grid to a versioned JSONL dataset. */
export async function buildMedOdysseyCommand(
  options: BuildMedOdysseyOptions,
  output: CommandOutput,
): Promise<void> {
  const tasks =
    options.task === 'all'
      ? (['niah', 'counting'] as const)
      : parseChoiceList('--task', options.task, ['niah', 'counting'] as const);
  const languages = options.lang === 'all' ? LANGUAGES : parseChoiceList('--lang', options.lang, LANGUAGES);
  const mic = parseChoiceList('--mic', options.mic, ['ratio', 'exact', 'per-model'] as const)[0]!;
  const haystack = parseChoiceList('--haystack', options.haystack, ['medical', 'generic'] as const)[0]!;
  const tokenizers: Tokenizer[] = [];
  for (const name of options.tokenizers
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    tokenizers.push(await getTokenizer(name));
  }
  const started = Date.now();
  const { samples, statistics } = prepareMedOdysseyBuild({
    data: options.data,
    tasks,
    languages,
    levels: options.levels ? parseNumberList('--levels', options.levels) : LEVELS,
    depths: options.depths ? parseNumberList('--depths', options.depths) : DEPTHS,
    countingTypes: options.countingTypes
      ? parseChoiceList('--counting-types', options.countingTypes, COUNTING_TYPES)
      : COUNTING_TYPES,
    mic,
    gamma: {
      ...(options.gammaEn ? { en: parsePositiveNumber('--gamma-en', options.gammaEn) } : {}),
      ...(options.gammaZh ? { zh: parsePositiveNumber('--gamma-zh', options.gammaZh) } : {}),
    },
    tokenizers,
    haystack,
    seed: options.seed,
    countingSentences: parseRange('--counting-sentences', options.countingSentences),
    ...(options.needles ? { needleIds: parseNumberList('--needles', options.needles) } : {}),
  });
  const out = resolve(options.out);
  const written = await writeDataset({
    path: out,
    header: {
      suite: 'medodyssey',
      createdAt: new Date().toISOString(),
      generator: `medbench ${VERSION}`,
      build: {
        data: resolve(options.data),
        tasks,
        languages,
        mic,
        haystack,
        seed: options.seed,
        gamma: { en: options.gammaEn ?? null, zh: options.gammaZh ?? null },
        countingSentences: options.countingSentences,
      },
      tokenizers: tokenizers.map((tokenizer) => tokenizer.name),
    },
    samples,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  output.stdout(
    `Wrote ${written.count} samples to ${out} in ${seconds} s (mic ${mic}, tokenizers ${tokenizers.map((tokenizer) => tokenizer.name).join(', ')}).\n`,
  );
  if (statistics.corpusExhausted > 0) {
    output.stderr(
      `warning: ${statistics.corpusExhausted} samples use the whole corpus and still stay below their token level.\n`,
    );
  }
  if (statistics.fastCountMismatches > 0) {
    output.stderr(
      `warning: ${statistics.fastCountMismatches} samples needed full recounts while fitting (fast and full counts disagreed).\n`,
    );
  }
}
