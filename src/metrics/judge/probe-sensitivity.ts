import { type BootstrapOptions, type PairedInterval, pairedBootstrap } from '../uncertainty/index.js';

/** One judge's grade of one item: its rubric score and the criteria it found met, or why it is unscored. */
export type ProbeGrade = { score: number; met: ReadonlySet<string> } | { unscored: string };

/** An item as the plain judging and the probe graded it (undefined: not graded at all). */
export interface ProbePair {
  plain: ProbeGrade | undefined;
  probe: ProbeGrade | undefined;
}

/** How often a criterion's verdict changed under the probe, each way. */
export interface CriterionFlips {
  metToNot: number;
  notToMet: number;
}

/** A judge's sensitivity to a probe on one task (docs/judge-probes.md). */
export interface ProbeSensitivity {
  /** Items both gradings scored: what every other number is over. */
  n: number;
  /** Mean of (probe − plain) score over them, with its paired 95% interval and p; null when n is 0. */
  change: PairedInterval | null;
  /** Items whose score changed at all. */
  changed: number;
  /** criterion id → its verdicts that flipped (every criterion of the rubric, 0 when none did). */
  criteria: Record<string, CriterionFlips>;
  /** Items unscored (or not graded) by the plain judging, the probe, or both: left out of the rest. */
  unscored: number;
}

/** Scores closer than this are the same score (rubric scores are ratios of small whole numbers). */
const SAME = 1e-9;

/**
 * The paired comparison of a probe's grades with the plain grades of the same judge: over the
 * items both scored, the mean score change with the shared module's paired bootstrap
 * (`pairedBootstrap`, mean(probe) − mean(plain)), how many items moved, and per criterion how many
 * verdicts flipped, met → not met and not met → met.
 */
export function probeSensitivity(
  pairs: readonly ProbePair[],
  criteria: readonly string[],
  options: BootstrapOptions = {},
): ProbeSensitivity {
  const plain: number[] = [];
  const probe: number[] = [];
  const flips: Record<string, CriterionFlips> = Object.fromEntries(
    criteria.map((id) => [id, { metToNot: 0, notToMet: 0 }]),
  );
  let unscored = 0;
  let changed = 0;
  for (const pair of pairs) {
    if (!pair.plain || !pair.probe || 'unscored' in pair.plain || 'unscored' in pair.probe) {
      unscored++;
      continue;
    }
    plain.push(pair.plain.score);
    probe.push(pair.probe.score);
    if (Math.abs(pair.probe.score - pair.plain.score) > SAME) changed++;
    for (const id of criteria) {
      const before = pair.plain.met.has(id);
      const after = pair.probe.met.has(id);
      if (before && !after) flips[id]!.metToNot++;
      if (!before && after) flips[id]!.notToMet++;
    }
  }
  return {
    n: plain.length,
    change: plain.length > 0 ? pairedBootstrap(plain, probe, options) : null,
    changed,
    criteria: flips,
    unscored,
  };
}
