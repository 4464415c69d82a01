import type { CountingType } from './constants.js';
import type { CountingPlan } from './counting-parts.js';
import { SeededRandom } from './seeded-random.js';

export interface CountingPlanOptions {
  type: CountingType;
  /** Seed string; the plan depends on nothing else. */
  seed: string;
  /** Range of the number k of counting sentences (published samples: 6 to 20). */
  minSentences: number;
  maxSentences: number;
}

/**
 * The counts of one counting sample. repeat: every count is 1; increase: 1, 2, …, k;
 * shuffle: uniform in [1, k]; correction: true counts uniform in [1, k], each preceded by
 * a different wrong count in [1, k + 2].
 */
export function countingPlan(options: CountingPlanOptions): CountingPlan {
  const random = new SeededRandom(options.seed);
  const k = random.integer(options.minSentences, options.maxSentences);
  switch (options.type) {
    case 'repeat':
      return { counts: Array.from({ length: k }, () => 1), wrongCounts: undefined };
    case 'increase':
      return { counts: Array.from({ length: k }, (_, index) => index + 1), wrongCounts: undefined };
    case 'shuffle':
      return { counts: Array.from({ length: k }, () => random.integer(1, k)), wrongCounts: undefined };
    case 'correction': {
      const counts = Array.from({ length: k }, () => random.integer(1, k));
      const wrongCounts = counts.map((count) => {
        let wrong = random.integer(1, k + 1);
        if (wrong >= count) wrong += 1; // skip the true count: uniform over [1, k + 2] \ {count}
        return wrong;
      });
      return { counts, wrongCounts };
    }
  }
}
