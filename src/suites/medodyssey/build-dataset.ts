import type { SuiteBuild } from '../../core/suite.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import { buildMedicalSamples } from './build-medical-samples.js';
import type { MicMode } from './build-samples.js';
import type { CountingType, Language } from './constants.js';
import { type MedOdysseyBuildRequest, prepareMedOdysseyBuild } from './index.js';
import { loadPromptTemplates } from './medical-prompts.js';
import { loadMedicalSources, type MedicalSource } from './medical-sources.js';
import { publishedCountingSamples } from './published-counting.js';
import type { HaystackKind } from './release.js';

/** Everything a MedOdyssey dataset is built from, parsed and checked by its command. */
export interface MedOdysseyDatasetRequest {
  /** NIAH and Counting from the release; absent when neither is built from it. */
  release?: MedOdysseyBuildRequest;
  /** KG, Term, Table and Case from the user's knowledge sources. */
  medical?: {
    folder: string;
    tasks: ReadonlyArray<MedicalSource['task']>;
    kgQuestions: number;
    /** The prompt templates (the release's prompt.json layout), read only when some source is there. */
    promptsFile: () => string;
  };
  /** Counting taken as published, from a release's evaluation_result/. */
  publishedCounting?: { folder: string; haystack: HaystackKind; countingTypes: readonly CountingType[] };
  languages: readonly Language[];
  levels: readonly number[];
  mic: MicMode;
  gamma: Record<Language, number>;
  tokenizers: readonly Tokenizer[];
  seed: string;
}

const COUNT_PATH_WORDS = {
  native: 'by its native encoder',
  workers: 'on worker threads',
  'in-thread': 'in this thread',
} as const;

export type MedOdysseyBuildRecord = { prompts: string | null };

/**
 * A MedOdyssey dataset: NIAH and Counting from the release, Counting as published, and the
 * medical tasks from the user's sources. Every file is read and checked here; the samples are
 * then made one at a time as the caller consumes them.
 */
export async function buildMedOdysseyDataset(
  request: MedOdysseyDatasetRequest,
): Promise<SuiteBuild<MedOdysseyBuildRecord>> {
  const release = request.release ? await prepareMedOdysseyBuild(request.release) : undefined;
  const medical = request.medical
    ? loadMedicalSources({
        folder: request.medical.folder,
        tasks: request.medical.tasks,
        languages: request.languages,
        kgQuestions: request.medical.kgQuestions,
        seed: request.seed,
      })
    : { sources: [], skipped: [] };
  const prompts =
    request.medical && medical.sources.length > 0
      ? loadPromptTemplates(request.medical.promptsFile())
      : undefined;
  const published = request.publishedCounting
    ? request.languages.flatMap((language) =>
        publishedCountingSamples({
          folder: request.publishedCounting!.folder,
          language,
          haystack: request.publishedCounting!.haystack,
          levels: request.levels,
          countingTypes: request.publishedCounting!.countingTypes,
          tokenizers: request.tokenizers,
        }),
      )
    : [];
  function* samples() {
    if (release) yield* release.samples;
    yield* published;
    if (!prompts) return;
    yield* buildMedicalSamples({
      prompts,
      sources: medical.sources,
      levels: request.levels,
      mic: request.mic,
      gamma: request.gamma,
      tokenizers: request.tokenizers,
      seed: request.seed,
    });
  }
  return {
    samples: samples(),
    notices: medical.skipped.map((skipped) => `skipped ${skipped}`),
    warnings: () => {
      const statistics = release?.statistics;
      if (!statistics) return [];
      const paths = Object.entries(statistics.countPaths ?? {});
      return [
        ...(paths.length > 0
          ? [
              `haystacks counted once per tokenizer: ${paths.map(([name, path]) => `${name} ${COUNT_PATH_WORDS[path]}`).join(', ')}.`,
            ]
          : []),
        ...(statistics.corpusExhausted > 0
          ? [
              `warning: ${statistics.corpusExhausted} samples use the whole corpus and still stay below their token level.`,
            ]
          : []),
        ...(statistics.fastCountMismatches > 0
          ? [
              `warning: ${statistics.fastCountMismatches} samples needed full recounts while fitting (fast and full counts disagreed).`,
            ]
          : []),
        ...(statistics.verified
          ? [
              `verified ${statistics.verified} fitted prompts against full tokenization: ${statistics.fastCountMismatches} mismatches.`,
            ]
          : []),
      ];
    },
    record: { prompts: prompts?.path ?? null },
  };
}
