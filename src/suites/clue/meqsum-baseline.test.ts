import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rouge } from '../../metrics/rouge.js';
import { mean } from '../../metrics/set-f1.js';
import { loadMeQSum } from './meqsum.js';
import { PythonRandom } from './python-random.js';

const shared = process.env.MEDBENCH_SHARED_DATA;
const file = shared ? join(shared, 'clue', 'MeQSum_ACL2019_BenAbacha_Demner-Fushman.xlsx') : undefined;
const available = file !== undefined && existsSync(file);
if (!available) {
  console.warn(
    'SKIPPED meqsum-baseline.test.ts: set MEDBENCH_SHARED_DATA to the shared data folder (holding clue/) to check ROUGE on the official MeQSum file.',
  );
}

describe.skipIf(!available)('MeQSum unchanged-input baseline on the official file', () => {
  it('gives CLUE Table 3 baseline ROUGE within ±0.05', () => {
    const items = loadMeQSum(file!);
    expect(items).toHaveLength(1000);
    // The published split: random.seed(1); random.shuffle(items); the first 3 are the shots.
    const scored = new PythonRandom(1).shuffle([...items]).slice(3);
    const scores = scored.map((item) => rouge(item.question, item.summary));
    const percent = (pick: (score: (typeof scores)[number]) => number) => 100 * mean(scores.map(pick));
    expect(Math.abs(percent((score) => score.rougeL.f) - 14.96)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(percent((score) => score.rouge1.f) - 18.99)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(percent((score) => score.rouge2.f) - 7.21)).toBeLessThanOrEqual(0.05);
  });
});
