import { resolveHome, storePathIn } from '../../compose/home.js';
import type { CommandOutput } from '../../core/command-output.js';
import type { Suite } from '../../core/suite.js';
import { mergeStores } from '../../store/merge-stores.js';
import { Store } from '../../store/store.js';
import { suiteLeaderboard } from '../../store/suite-leaderboard.js';

/** `medbench merge <store…>`: other machines' stores (shards of one run, or any runs) into this home's. */
export function mergeCommand(
  options: { home?: string; sources: string[]; suites: readonly Suite[] },
  output: CommandOutput,
): void {
  const target = storePathIn(resolveHome(options.home));
  for (const merged of mergeStores(target, options.sources)) {
    const conflicts =
      merged.conflicts > 0
        ? `; ${merged.conflicts} samples answered differently in both stores kept as they were here`
        : '';
    output.stderr(
      `Merged ${merged.source}: ${merged.runs} runs, ${merged.results} results (${merged.errorsReplaced} errors replaced by answers), ${merged.prompts} prompts, ${merged.responses} cached responses${conflicts}.\n`,
    );
  }
  // The saved leaderboards, for what the store now holds.
  const store = new Store(target);
  try {
    for (const suite of options.suites) suiteLeaderboard(store, suite, { save: true });
  } finally {
    store.close();
  }
}
