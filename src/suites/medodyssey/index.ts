import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { Task } from '../../core/task.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import {
  type BuildStatistics,
  buildSamples,
  countCorpora,
  type LanguageSource,
  type MicMode,
} from './build-samples.js';
import { ANSWER_RESERVE_CHARS, type CountingType, DEFAULT_GAMMA, type Language } from './constants.js';
import type { CountingDrawsFile } from './counting-draws.js';
import { loadCountingHaystack } from './counting-haystack.js';
import { countingTask } from './counting-task.js';
import { caseTask, kgTask, tableTask, termTask } from './medical-tasks.js';
import { ratioCharBudget } from './mic.js';
import { niahTask } from './niah-task.js';
import {
  type HaystackKind,
  loadHaystack,
  loadNeedles,
  type Needle,
  resolveDatasetFolder,
} from './release.js';

export { buildSamples } from './build-samples.js';
export * from './constants.js';

/** The tasks of the MedOdyssey suite, by name. */
export const medodysseyTasks: Readonly<Record<string, Task>> = {
  niah: niahTask,
  counting: countingTask,
  kg: kgTask,
  term: termTask,
  table: tableTask,
  case: caseTask,
};

export interface MedOdysseyBuildRequest {
  /** Release root or its dataset/ folder. */
  data: string;
  tasks: ReadonlyArray<'niah' | 'counting'>;
  languages: readonly Language[];
  levels: readonly number[];
  depths: readonly number[];
  countingTypes: readonly CountingType[];
  mic: MicMode;
  gamma?: Partial<Record<Language, number>>;
  tokenizers: readonly Tokenizer[];
  haystack: HaystackKind;
  seed: string;
  countingSentences: { min: number; max: number };
  /** Only these needle ids (all when undefined). */
  needleIds?: readonly number[];
  /** Counting draws to use instead of seeded ones (e.g. the published `counting-draws.json`). */
  countingDraws?: CountingDrawsFile | undefined;
  /** Exact modes: check every derived token count against a full tokenization of the prompt. */
  verifyCounts?: boolean;
}

/** The needles of `ids` (all when undefined); an id the needles file lacks is a usage error. */
function chosenNeedles(
  needles: readonly Needle[],
  ids: readonly number[] | undefined,
  language: Language,
): Needle[] {
  if (ids === undefined) return [...needles];
  const known = new Set(needles.map((needle) => needle.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const sorted = [...known].sort((left, right) => left - right);
    throw new MedbenchError({
      code: 'USAGE',
      message: `--needles ${unknown.join(',')}: the ${language} needles file has no such id (its ids: ${sorted.length === 0 ? 'none' : `${sorted[0]}–${sorted.at(-1)}`}).`,
      hint: 'Give ids the release has, or leave --needles out to use every needle.',
    });
  }
  return needles.filter((needle) => ids.includes(needle.id));
}

/**
 * Reads the release (needles and haystacks, validated up front) and returns the sample
 * generator with the statistics it fills in. Every input error is thrown here, before a
 * single sample is produced.
 */
export async function prepareMedOdysseyBuild(request: MedOdysseyBuildRequest): Promise<{
  samples: Generator<Sample>;
  statistics: BuildStatistics;
}> {
  const datasetFolder = resolveDatasetFolder(request.data);
  const gamma = { ...DEFAULT_GAMMA, ...request.gamma };
  const maxLevel = Math.max(...request.levels);
  const sources: LanguageSource[] = request.languages.map((language) => {
    const ratioBudget = ratioCharBudget(maxLevel, gamma[language]);
    const needles = request.tasks.includes('niah')
      ? chosenNeedles(loadNeedles(datasetFolder, language), request.needleIds, language)
      : undefined;
    // The builder checks each sample's exact need; here the corpus must merely exist.
    // ratio mode never needs more than its budget; exact modes may use more than γ predicts.
    const preferredChars = request.mic === 'ratio' ? ratioBudget - ANSWER_RESERVE_CHARS : ratioBudget * 2;
    const corpus = request.tasks.includes('niah')
      ? loadHaystack({ datasetFolder, language, kind: request.haystack, minimumChars: 1, preferredChars })
      : undefined;
    const countingHaystack = request.tasks.includes('counting')
      ? loadCountingHaystack({
          datasetFolder,
          language,
          kind: request.haystack,
          minimumChars: 1,
          preferredChars: request.mic === 'ratio' ? ratioBudget : ratioBudget * 2,
        })
      : undefined;
    return { language, corpus, needles, countingHaystack };
  });
  const statistics: BuildStatistics = { samples: 0, fastCountMismatches: 0, corpusExhausted: 0 };
  // Exact modes: every corpus counted once per tokenizer, on every core, before the first sample.
  const indexes = await countCorpora({
    sources,
    tokenizers: request.tokenizers,
    mic: request.mic,
    statistics,
  });
  const samples = buildSamples(
    {
      sources,
      tasks: request.tasks,
      levels: request.levels,
      depths: request.depths,
      countingTypes: request.countingTypes,
      mic: request.mic,
      gamma,
      tokenizers: request.tokenizers,
      haystack: request.haystack,
      seed: request.seed,
      countingSentences: request.countingSentences,
      countingDraws: request.countingDraws,
      verifyCounts: request.verifyCounts === true,
      indexes,
    },
    statistics,
  );
  return { samples, statistics };
}
