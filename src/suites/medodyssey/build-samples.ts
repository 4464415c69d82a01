import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import type { CodePointText } from '../../tokenizers/code-point-text.js';
import { CorpusTokenIndex } from '../../tokenizers/corpus-token-index.js';
import { joinPromptParts, type PromptPart } from '../../tokenizers/prompt-parts.js';
import { ANSWER_RESERVE_CHARS, type CountingType, type Language, levelName } from './constants.js';
import { countingOverheadChars, countingParts } from './counting-parts.js';
import { countingPlan } from './counting-plan.js';
import { fitGroups, fitOrFail, ratioCharBudget } from './mic.js';
import { niahOverheadChars, niahParts } from './niah-parts.js';
import type { HaystackKind, Needle } from './release.js';

export type MicMode = 'ratio' | 'exact' | 'per-model';

export interface LanguageSource {
  language: Language;
  corpus: CodePointText;
  /** Needles for NIAH; undefined when NIAH is not built. */
  needles: Needle[] | undefined;
}

export interface BuildSamplesOptions {
  sources: LanguageSource[];
  tasks: ReadonlyArray<'niah' | 'counting'>;
  levels: readonly number[];
  depths: readonly number[];
  countingTypes: readonly CountingType[];
  mic: MicMode;
  gamma: Record<Language, number>;
  /** Every prompt's token count is recorded under each; exact/per-model fit to them. */
  tokenizers: readonly Tokenizer[];
  haystack: HaystackKind;
  seed: string;
  countingSentences: { min: number; max: number };
}

export interface BuildStatistics {
  samples: number;
  /** Samples whose fast count disagreed with the full count (then fixed by full recounts). */
  fastCountMismatches: number;
  /** Samples whose context is the whole corpus yet below the token level. */
  corpusExhausted: number;
}

interface Assembler {
  task: 'niah' | 'counting';
  idStem: string;
  params: Record<string, string | number>;
  gold: unknown;
  meta: Record<string, unknown>;
  overheadChars: number;
  assemble: (haystackChars: number) => { parts: PromptPart[]; offsets: Record<string, unknown> };
}

function* assemblers(
  source: LanguageSource,
  options: BuildSamplesOptions,
  level: number,
): Generator<Assembler> {
  const { language, corpus } = source;
  if (options.tasks.includes('niah') && source.needles) {
    for (const depth of options.depths) {
      for (const needle of source.needles) {
        yield {
          task: 'niah',
          idStem: `niah-${language}-${levelName(level)}-d${depth}-n${needle.id}`,
          params: { language, level, depth, needleId: needle.id, needleType: needle.type },
          gold: { answers: needle.ground_truth },
          meta: { needle: needle.needle, question: needle.input },
          overheadChars: niahOverheadChars({
            language,
            needle: needle.needle,
            question: needle.input,
            depth,
          }),
          assemble: (haystackChars) => {
            const built = niahParts({
              language,
              needle: needle.needle,
              question: needle.input,
              depth,
              corpus,
              haystackChars,
            });
            return { parts: built.parts, offsets: { needleOffset: built.needleOffset } };
          },
        };
      }
    }
  }
  if (options.tasks.includes('counting')) {
    for (const type of options.countingTypes) {
      const plan = countingPlan({
        type,
        seed: `${options.seed}/counting/${language}/${level}/${type}`,
        minSentences: options.countingSentences.min,
        maxSentences: options.countingSentences.max,
      });
      yield {
        task: 'counting',
        idStem: `counting-${language}-${levelName(level)}-${type}`,
        params: { language, level, countingType: type, sentences: plan.counts.length },
        gold: { counts: plan.counts },
        meta: plan.wrongCounts ? { wrongCounts: plan.wrongCounts } : {},
        overheadChars: countingOverheadChars(language, type, plan),
        assemble: (haystackChars) => {
          const built = countingParts({ language, type, plan, corpus, haystackChars });
          return { parts: built.parts, offsets: { insertOffsets: built.insertOffsets } };
        },
      };
    }
  }
}

/**
 * Builds the MedOdyssey NIAH and Counting grid, one sample at a time. `ratio` follows the
 * paper (character budget floor(N/γ) minus a 200-character answer reserve); `exact` fits
 * the longest shared context whose whole prompt has at most N tokens under every
 * tokenizer; `per-model` fits each tokenizer's own context (ids get an `@tokenizer` suffix).
 */
export function* buildSamples(options: BuildSamplesOptions, statistics: BuildStatistics): Generator<Sample> {
  for (const source of options.sources) {
    const indexCache = new Map<string, CorpusTokenIndex>();
    const indexFor = (tokenizer: Tokenizer) => {
      let index = indexCache.get(tokenizer.name);
      if (!index) {
        index = new CorpusTokenIndex({ corpus: source.corpus, tokenizer, limit: source.corpus.length });
        indexCache.set(tokenizer.name, index);
      }
      return index;
    };
    for (const level of options.levels) {
      for (const assembler of assemblers(source, options, level)) {
        const groups = fitGroups(options.mic, options.tokenizers);
        for (const group of groups) {
          const fitted =
            options.mic === 'ratio'
              ? {
                  haystackChars: ratioHaystackChars(
                    assembler,
                    level,
                    options.gamma[source.language],
                    source.corpus.length,
                  ),
                  counts: {} as Record<string, number>,
                }
              : fitExact(assembler, group.tokenizers.map(indexFor), level, source.corpus, statistics);
          const haystackChars = fitted.haystackChars;
          const { parts, offsets } = assembler.assemble(haystackChars);
          const prompt = joinPromptParts(source.corpus, parts);
          // Counts verified while fitting are full counts of this very prompt: reuse them.
          const promptTokens = Object.fromEntries(
            options.tokenizers.map((tokenizer) => [
              tokenizer.name,
              fitted.counts[tokenizer.name] ?? tokenizer.count(prompt),
            ]),
          );
          if (options.mic !== 'ratio' && haystackChars === source.corpus.length) statistics.corpusExhausted++;
          statistics.samples++;
          yield {
            id: assembler.idStem + group.suffix,
            suite: 'medodyssey',
            task: assembler.task,
            params: {
              ...assembler.params,
              mic: options.mic,
              haystack: options.haystack,
              ...(group.fitFor ? { fitFor: group.fitFor } : {}),
            },
            prompt,
            promptChars: [...prompt].length,
            promptTokens,
            gold: assembler.gold,
            meta: { ...assembler.meta, ...offsets, haystackChars },
          };
        }
      }
    }
  }
}

function ratioHaystackChars(
  assembler: Assembler,
  level: number,
  gamma: number,
  corpusLength: number,
): number {
  const haystackChars = ratioCharBudget(level, gamma) - assembler.overheadChars - ANSWER_RESERVE_CHARS;
  if (haystackChars < 0) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `Level ${level} is too small for ${assembler.idStem}: its instruction, needle or counting sentences alone exceed the budget.`,
      hint: 'Choose larger levels (--levels) or fewer counting sentences (--counting-sentences).',
    });
  }
  if (haystackChars > corpusLength) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `The haystack holds ${corpusLength} characters; ${assembler.idStem} needs ${haystackChars}.`,
      hint: 'Give the full release (all haystack files, in the published order), or build smaller levels (--levels).',
    });
  }
  return haystackChars;
}

function fitExact(
  assembler: Assembler,
  indexes: CorpusTokenIndex[],
  level: number,
  corpus: CodePointText,
  statistics: BuildStatistics,
): { haystackChars: number; counts: Record<string, number> } {
  const fitted = fitOrFail({
    indexes,
    assemble: (haystackChars) => assembler.assemble(haystackChars).parts,
    limit: level,
    maxHaystackChars: corpus.length,
    sampleId: assembler.idStem,
  });
  // The fast counter is exact by construction; the full count verifies it (and is the count
  // recorded). Should they ever disagree, shrink with full recounts until the prompt fits.
  let haystackChars = fitted.haystackChars;
  const fullCounts = () => {
    const prompt = joinPromptParts(corpus, assembler.assemble(haystackChars).parts);
    return indexes.map((index) => index.tokenizer.count(prompt));
  };
  let counts = fullCounts();
  if (counts.some((count, position) => count !== fitted.tokens[indexes[position]!.tokenizer.name])) {
    statistics.fastCountMismatches++;
    while (haystackChars > 0 && counts.some((count) => count > level)) {
      haystackChars = Math.max(0, haystackChars - 4);
      counts = fullCounts();
    }
  }
  return {
    haystackChars,
    counts: Object.fromEntries(indexes.map((index, position) => [index.tokenizer.name, counts[position]!])),
  };
}
