import type { Sample } from '../../core/sample.js';
import type { SuiteBuild } from '../../core/suite.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import {
  buildMeDiSumCode,
  buildMeDiSumQa,
  buildMedNli,
  buildMeQSum,
  buildProblemSummary,
  type ClueBuildContext,
} from './build-clue-samples.js';
import {
  type ClueTaskName,
  loadLongHealth,
  loadMeDiSumCode,
  loadMeDiSumQa,
  loadMedNli,
  loadMeQSum,
  loadProblemSummary,
} from './load-tasks.js';
import { buildLongHealth } from './longhealth.js';

/** What a CLUE build drew from beyond its files: every code in MeDiSumCode (the baseline draws from it). */
export type ClueBuildRecord = { codePool: string[] };

/**
 * The CLUE samples of the tasks asked for, each file read and checked before any is used
 * (`run clue --limit` keeps the first of each task). LongHealth's prompts depend on the model's
 * window and tokenizer.
 */
export async function buildClueDataset(options: {
  tasks: readonly ClueTaskName[];
  files: Partial<Record<ClueTaskName, string>>;
  context: ClueBuildContext;
  /** The target model's tokenizer (LongHealth cuts with it); the baseline's LongHealth uses o200k_base. */
  tokenizer: Tokenizer | undefined;
  seed: number;
}): Promise<SuiteBuild<ClueBuildRecord>> {
  const samples: Sample[] = [];
  let codePool: string[] = [];
  for (const task of options.tasks) {
    const path = options.files[task]!;
    let built: Sample[];
    if (task === 'mednli') built = buildMedNli(loadMedNli(path), options.context);
    else if (task === 'meqsum') built = buildMeQSum(loadMeQSum(path), options.context);
    else if (task === 'problem-summary')
      built = buildProblemSummary(loadProblemSummary(path), options.context);
    else if (task === 'medisumqa') built = buildMeDiSumQa(loadMeDiSumQa(path), options.context);
    else if (task === 'medisumcode') {
      const items = loadMeDiSumCode(path);
      codePool = [...new Set(items.flatMap((item) => item.codes))].sort();
      built = buildMeDiSumCode(items, options.context);
    } else {
      built = buildLongHealth(loadLongHealth(path), {
        ...options.context,
        // The baseline sends nothing; any tokenizer that can cut builds the same samples' options.
        tokenizer: options.tokenizer ?? (await getTokenizer('o200k_base')),
        seed: options.seed,
      });
    }
    samples.push(...built);
  }
  return { samples, notices: [], warnings: () => [], record: { codePool } };
}
