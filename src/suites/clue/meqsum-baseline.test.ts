import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rouge } from '../../metrics/rouge.js';
import { buildMeQSum } from './build-clue-samples.js';
import { loadMeQSum } from './meqsum.js';
import { averaged, CLUE_PROTOCOL, type ClueProtocolName } from './protocols.js';

const shared = process.env.MEDBENCH_SHARED_DATA;
const file = shared ? join(shared, 'clue', 'MeQSum_ACL2019_BenAbacha_Demner-Fushman.xlsx') : undefined;
const available = file !== undefined && existsSync(file);
if (!available) {
  console.warn(
    'SKIPPED meqsum-baseline.test.ts: set MEDBENCH_SHARED_DATA to the shared data folder (holding clue/) to check ROUGE on the official MeQSum file.',
  );
}

describe.skipIf(!available)('MeQSum unchanged-input baseline on the official file', () => {
  const baselineOf = (protocol: ClueProtocolName) => {
    const samples = buildMeQSum(loadMeQSum(file!), {
      protocol: CLUE_PROTOCOL[protocol],
      model: { instruct: true, systemRole: true },
      contextWindow: undefined,
    });
    const scores = samples.map((sample) =>
      rouge(String(sample.meta!.input), (sample.gold as { reference: string }).reference),
    );
    const rule = CLUE_PROTOCOL[protocol].tasks.meqsum.averaging;
    const percent = (pick: (score: (typeof scores)[number]) => number) =>
      (100 * averaged(scores.map(pick), rule)).toFixed(2);
    return {
      items: samples.length,
      scores: [
        percent((score) => score.rougeL.f),
        percent((score) => score.rouge1.f),
        percent((score) => score.rouge2.f),
      ],
    };
  };

  it('paper-2024 prints Table 3 exactly: 14.96 / 18.99 / 7.21 (file order, 3 shots out, first item twice)', () => {
    expect(baselineOf('paper-2024')).toEqual({ items: 997, scores: ['14.96', '18.99', '7.21'] });
  });

  it('repo-2025 prints what that code would: 14.95 / 18.97 / 7.19 (seed-1 shuffle, plain mean)', () => {
    expect(baselineOf('repo-2025')).toEqual({ items: 997, scores: ['14.95', '18.97', '7.19'] });
  });
});
