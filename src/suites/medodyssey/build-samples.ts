import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import { type CodePointText, codePointLength } from '../../tokenizers/code-point-text.js';
import { CorpusTokenIndex } from '../../tokenizers/corpus-token-index.js';
import type { CountPath } from '../../tokenizers/count-many.js';
import { joinPromptParts, type PromptPart } from '../../tokenizers/prompt-parts.js';
import { ANSWER_RESERVE_CHARS, type CountingType, type Language, levelName } from './constants.js';
import {
  type CountingDraw,
  type CountingDrawsFile,
  countingGrid,
  publishedDraw,
  seededGroupDraws,
} from './counting-draws.js';
import type { CountingHaystack } from './counting-haystack.js';
import { countingOverheadChars, countingParts, countingShortOf } from './counting-parts.js';
import { fitGroups, fitOrFail, ratioCharBudget } from './mic.js';
import { needleOverlapOf } from './needle-overlap.js';
import { niahOverheadChars, niahParts } from './niah-parts.js';
import type { HaystackKind, Needle } from './release.js';

export type MicMode = 'ratio' | 'exact' | 'per-model';

export interface LanguageSource {
  language: Language;
  /** The NIAH haystack; undefined when NIAH is not built. */
  corpus: CodePointText | undefined;
  /** Needles for NIAH; undefined when NIAH is not built. */
  needles: Needle[] | undefined;
  /** The Counting haystack (its own book order and cut rules); undefined when Counting is not built. */
  countingHaystack?: CountingHaystack | undefined;
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
  /** Published (or user-given) Counting draws; seeded draws where absent. */
  countingDraws?: CountingDrawsFile | undefined;
  /**
   * Exact modes: also tokenize every final prompt in full and compare with the count derived from
   * the corpus's prefix sums (a disagreement is counted, and fixed by full recounts). Off, the
   * derived counts — exact by construction — are recorded as they are.
   */
  verifyCounts?: boolean;
  /** Indexes counted beforehand (`countCorpora`, in parallel); others are counted when first needed. */
  indexes?: CorpusIndexes;
}

/** Corpus token indexes by corpus, then tokenizer name. */
export type CorpusIndexes = Map<CodePointText, Map<string, CorpusTokenIndex>>;

/**
 * The token indexes an exact build needs (every corpus of every source under every tokenizer),
 * counted natively or on worker threads, one corpus after another. Ratio builds need none.
 */
export async function countCorpora(options: {
  sources: readonly LanguageSource[];
  tokenizers: readonly Tokenizer[];
  mic: MicMode;
  statistics?: BuildStatistics;
}): Promise<CorpusIndexes> {
  const indexes: CorpusIndexes = new Map();
  if (options.mic === 'ratio') return indexes;
  const paths: Record<string, CountPath> = {};
  for (const source of options.sources) {
    for (const corpus of [source.corpus, source.countingHaystack?.text]) {
      if (!corpus || indexes.has(corpus)) continue;
      const byTokenizer = new Map<string, CorpusTokenIndex>();
      indexes.set(corpus, byTokenizer);
      for (const tokenizer of options.tokenizers) {
        const onPath = (path: CountPath) => {
          paths[tokenizer.name] = path;
        };
        byTokenizer.set(
          tokenizer.name,
          await CorpusTokenIndex.create({ corpus, tokenizer, limit: corpus.length, onPath }),
        );
      }
    }
  }
  if (options.statistics) options.statistics.countPaths = paths;
  return indexes;
}

export interface BuildStatistics {
  samples: number;
  /** Samples whose fast count disagreed with the full count (then fixed by full recounts). */
  fastCountMismatches: number;
  /** Samples whose derived counts were checked against full tokenization (`verifyCounts`). */
  verified?: number;
  /** Samples whose context is the whole corpus yet below the token level. */
  corpusExhausted: number;
  /** How each tokenizer's corpus indexes were counted (exact modes). */
  countPaths?: Record<string, CountPath>;
}

interface Assembler {
  task: 'niah' | 'counting';
  /** The text the prompt's haystack ranges index into. */
  corpus: CodePointText;
  idStem: string;
  params: Record<string, string | number>;
  gold: unknown;
  meta: Record<string, unknown>;
  overheadChars: number;
  assemble: (haystackChars: number) => { parts: PromptPart[]; offsets: Record<string, unknown> };
  /** Refuses a final assembly that cannot be a valid sample (an error to throw). */
  check?: (haystackChars: number) => Error | undefined;
}

function* niahAssemblers(
  source: LanguageSource,
  options: BuildSamplesOptions,
  level: number,
): Generator<Assembler> {
  const { language, corpus } = source;
  if (!options.tasks.includes('niah') || !source.needles || !corpus) return;
  for (const depth of options.depths) {
    for (const needle of source.needles) {
      yield {
        task: 'niah',
        corpus,
        idStem: `niah-${language}-${levelName(level)}-d${depth}-n${needle.id}`,
        params: {
          language,
          level,
          depth,
          needleId: needle.id,
          needleType: needle.type,
          // NoLiMa's literal-match measure, for the report's accuracy by overlap tercile.
          needleOverlap: needleOverlapOf(needle, language),
        },
        gold: { answers: needle.ground_truth },
        meta: { needle: needle.needle, question: needle.input },
        overheadChars: niahOverheadChars({ language, needle: needle.needle, question: needle.input, depth }),
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

function* countingAssemblers(
  source: LanguageSource,
  options: BuildSamplesOptions,
  level: number,
  drawsOf: (cell: ReturnType<typeof countingGrid>[number]) => CountingDraw,
): Generator<Assembler> {
  const { language, countingHaystack: haystack } = source;
  if (!options.tasks.includes('counting') || !haystack) return;
  for (const cell of countingGrid(options.levels)) {
    if (cell.level !== level || !options.countingTypes.includes(cell.type)) continue;
    const draw = drawsOf(cell);
    const idStem = `counting-${language}-${levelName(level)}-${cell.type}${options.haystack === 'generic' ? '-generic' : ''}`;
    const assemble = (budget: number) =>
      countingParts({
        language,
        type: cell.type,
        draw,
        haystack,
        budget,
        seed: `${options.seed}/counting/${language}/${options.haystack}/${cell.id}/offsets`,
        sampleId: idStem,
      });
    yield {
      task: 'counting',
      corpus: haystack.text,
      idStem,
      params: {
        language,
        level,
        countingType: cell.type,
        countingId: cell.id,
        sentences: draw.counts.length,
      },
      gold: { counts: draw.counts },
      meta: { draws: draw.source, ...(draw.wrongCounts ? { wrongCounts: draw.wrongCounts } : {}) },
      overheadChars: countingOverheadChars(language, cell.type, draw),
      check: (budget) => countingShortOf(assemble(budget), idStem),
      assemble: (budget) => {
        const built = assemble(budget);
        return {
          parts: built.parts,
          offsets: {
            insertOffsets: built.insertOffsets,
            haystackOffsets: built.haystackOffsets,
            kept: built.kept,
          },
        };
      },
    };
  }
}

/** The draws of each Counting cell of a language: the given file's, or seeded per group. */
function countingDrawsFor(source: LanguageSource, options: BuildSamplesOptions) {
  const file = options.countingDraws?.language === source.language ? options.countingDraws : undefined;
  const groups = new Map<number, ReturnType<typeof seededGroupDraws>>();
  return (cell: ReturnType<typeof countingGrid>[number]): CountingDraw => {
    if (file) return publishedDraw(file, options.haystack, cell);
    let group = groups.get(cell.group);
    if (!group) {
      group = seededGroupDraws({
        seed: `${options.seed}/counting/${source.language}/${options.haystack}/group${cell.group}`,
        sentences: options.countingSentences,
      });
      groups.set(cell.group, group);
    }
    return { ...group[cell.type], offsets: undefined, source: 'seeded' };
  };
}

/**
 * Builds the MedOdyssey NIAH and Counting grid, one sample at a time. `ratio` follows the
 * paper (character budget floor(N/γ) minus a 200-character answer reserve); `exact` fits
 * the longest shared context whose whole prompt has at most N tokens under every
 * tokenizer; `per-model` fits each tokenizer's own context (ids get an `@tokenizer` suffix).
 */
export function* buildSamples(options: BuildSamplesOptions, statistics: BuildStatistics): Generator<Sample> {
  for (const source of options.sources) {
    const indexCache: CorpusIndexes = options.indexes ?? new Map();
    const indexFor = (corpus: CodePointText) => (tokenizer: Tokenizer) => {
      const byTokenizer = indexCache.get(corpus) ?? new Map<string, CorpusTokenIndex>();
      indexCache.set(corpus, byTokenizer);
      let index = byTokenizer.get(tokenizer.name);
      if (!index) {
        index = new CorpusTokenIndex({ corpus, tokenizer, limit: corpus.length });
        byTokenizer.set(tokenizer.name, index);
      }
      return index;
    };
    const drawsOf = countingDrawsFor(source, options);
    for (const level of options.levels) {
      const assemblers = [
        ...niahAssemblers(source, options, level),
        ...countingAssemblers(source, options, level, drawsOf),
      ];
      for (const assembler of assemblers) {
        const corpus = assembler.corpus;
        const groups = fitGroups(options.mic, options.tokenizers);
        for (const group of groups) {
          const fitted =
            options.mic === 'ratio'
              ? {
                  haystackChars: ratioHaystackChars(
                    assembler,
                    level,
                    options.gamma[source.language],
                    corpus.length,
                  ),
                  counts: {} as Record<string, number>,
                }
              : fitExact(assembler, group.tokenizers.map(indexFor(corpus)), level, corpus, statistics, {
                  verify: options.verifyCounts === true,
                });
          const haystackChars = fitted.haystackChars;
          const refusal = assembler.check?.(haystackChars);
          if (refusal) throw refusal;
          const { parts, offsets } = assembler.assemble(haystackChars);
          const prompt = joinPromptParts(corpus, parts);
          // Counts made while fitting are of this very prompt: reuse them. Per-model, the tokenizers
          // the sample is not fitted for count it from their corpus index (exact by construction, as
          // the fit's own), not by tokenizing the whole prompt (seconds a 200k prompt for llama3).
          const derived = options.mic !== 'ratio' && options.verifyCounts !== true;
          const promptTokens = Object.fromEntries(
            options.tokenizers.map((tokenizer) => [
              tokenizer.name,
              fitted.counts[tokenizer.name] ??
                (derived ? indexFor(corpus)(tokenizer).count(parts) : tokenizer.count(prompt)),
            ]),
          );
          if (options.mic !== 'ratio' && haystackChars === corpus.length) statistics.corpusExhausted++;
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
            promptChars: codePointLength(prompt),
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
  options: { verify: boolean },
): { haystackChars: number; counts: Record<string, number> } {
  const fitted = fitOrFail({
    indexes,
    assemble: (haystackChars) => assembler.assemble(haystackChars).parts,
    limit: level,
    maxHaystackChars: corpus.length,
    sampleId: assembler.idStem,
  });
  // The derived count is exact by construction: record it. Verifying, the full count checks it
  // (and is the count recorded); should they ever disagree, shrink with full recounts until it fits.
  if (!options.verify) return { haystackChars: fitted.haystackChars, counts: fitted.tokens };
  statistics.verified = (statistics.verified ?? 0) + 1;
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
