import { z } from 'zod';
import type { RunRecord } from '../../core/run-record.js';
import type { ReportTable } from '../../core/suite.js';
import { countSchema, reportIntervalSchema } from '../../report/report-schema.js';
import { JUDGE_PROBES } from './judge-probes.js';

/** Within this many points (×100) either side of 0, an interval reads as "robust" (docs/judge-probes.md). */
export const ROBUST_MARGIN = 5;

const sensitivitySchema = z.strictObject({
  n: countSchema.meta({ description: 'Items both the plain grading and the probe scored.' }),
  change: reportIntervalSchema
    .extend({
      estimate: z.number().meta({ description: 'Mean of (probe − plain) score over the n items, ×100.' }),
      p: z.number().meta({ description: 'Two-sided paired bootstrap p of no change.' }),
    })
    .nullable()
    .meta({ description: 'The mean score change ×100 with its paired 95% interval; null when n is 0.' }),
  changed: countSchema.meta({ description: 'Items whose score changed at all.' }),
  criteria: z.record(z.string(), z.strictObject({ metToNot: countSchema, notToMet: countSchema })).meta({
    description: 'criterion id → verdicts that flipped under the probe, each way, over the n items.',
  }),
  unscored: countSchema.meta({
    description: 'Items unscored (or not graded) by the plain grading, the probe or both: left out.',
  }),
});

/** One judge's sensitivity to one probe (`medbench judge-probe`), as the graded run keeps it (`parameters.judgeProbes`). */
export const judgeProbeRecordSchema = z
  .strictObject({
    judge: z.string().meta({ description: 'The judge (its label).' }),
    judgeRun: z.string().meta({ description: "The judge's plain grading (a run of suite clue-judge)." }),
    probe: z.enum(JUDGE_PROBES).meta({
      description:
        "swap: the answer before the reference in the judge's message; padding: the answer lengthened with content-free sentences.",
    }),
    padFactor: z.number().optional().meta({ description: 'padding: the length factor asked for.' }),
    probeRun: z
      .string()
      .meta({ description: "The judge's grading under the probe (a run of suite clue-judge)." }),
    tasks: z.record(z.string(), sensitivitySchema).meta({ description: 'task → the sensitivity.' }),
  })
  .meta({
    description: "A judge's sensitivity to a probe (docs/judge-probes.md); never part of the judge score.",
  });

export type JudgeProbeRecord = z.infer<typeof judgeProbeRecordSchema>;
export type StoredSensitivity = z.infer<typeof sensitivitySchema>;

export const judgeProbesSchema = z.array(judgeProbeRecordSchema).meta({
  description:
    "Each judge's sensitivity to the probes of `medbench judge-probe`, one record per judge and probe.",
});

/** `{ judgeProbes }` for a probed run's report, nothing for another (or an unreadable record). */
export function judgeProbesOfRun(run: RunRecord): { judgeProbes?: JudgeProbeRecord[] } {
  const parsed = judgeProbesSchema.safeParse(run.parameters.judgeProbes);
  return parsed.success && parsed.data.length > 0 ? { judgeProbes: parsed.data } : {};
}

/** How to read a change: its interval excludes 0 → sensitive; within ±ROBUST_MARGIN → robust; else inconclusive. */
export function sensitivityReading(entry: StoredSensitivity): string {
  const { change } = entry;
  if (!change || entry.n < 2) return 'too few items';
  if (change.lower > 0 || change.upper < 0) return 'sensitive';
  return change.lower >= -ROBUST_MARGIN && change.upper <= ROBUST_MARGIN ? 'robust' : 'inconclusive';
}

const signed = (value: number) => `${value > 0 ? '+' : ''}${value.toFixed(1)}`;

/** Criteria whose verdicts flipped: `id k/n ↓a ↑b`, ↓ met → not met, ↑ not met → met. */
function flipsCell(entry: StoredSensitivity): string {
  const flipped = Object.entries(entry.criteria).filter(([, flips]) => flips.metToNot + flips.notToMet > 0);
  if (flipped.length === 0) return 'none';
  return flipped
    .map(([id, flips]) => {
      const ways = [flips.metToNot ? `↓${flips.metToNot}` : '', flips.notToMet ? `↑${flips.notToMet}` : ''];
      return `${id} ${flips.metToNot + flips.notToMet}/${entry.n} ${ways.filter(Boolean).join(' ')}`;
    })
    .join('; ');
}

/** The rows of one run's probe records: judge × task × probe. */
function rowsOf(label: string, records: readonly JudgeProbeRecord[]): string[][] {
  return records.flatMap((record) =>
    Object.entries(record.tasks).map(([task, entry]) => [
      label,
      task,
      record.judge,
      record.probe === 'padding' ? `padding ×${record.padFactor ?? '?'}` : record.probe,
      String(entry.n),
      entry.change ? signed(entry.change.estimate) : '—',
      entry.change ? `[${signed(entry.change.lower)}, ${signed(entry.change.upper)}]` : '—',
      entry.n > 0 ? `${entry.changed} (${Math.round((100 * entry.changed) / entry.n)}%)` : '—',
      String(entry.unscored),
      sensitivityReading(entry),
      flipsCell(entry),
    ]),
  );
}

/**
 * Each judge's sensitivity to the probes: over the items both gradings scored, the mean change of
 * its score ×100 with the paired 95% interval, the items moved and the criteria flipped; absent when no run was probed.
 */
export function clueJudgeSensitivityTable(
  runs: ReadonlyArray<{ label: string; judgeProbes?: JudgeProbeRecord[] }>,
): ReportTable | undefined {
  const rows = runs.flatMap((run) => rowsOf(run.label, run.judgeProbes ?? []));
  if (rows.length === 0) return undefined;
  return {
    name: 'judge-sensitivity',
    title:
      'Judge sensitivity (probe − plain score ×100 over items both scored; interval excluding 0 → sensitive; docs/judge-probes.md)',
    header: [
      'Model',
      'Task',
      'Judge',
      'Probe',
      'n',
      'Change',
      '95% interval',
      'Changed',
      'Unscored',
      'Reading',
      'Criterion flips (↓ met → not met, ↑ not met → met)',
    ],
    rows,
  };
}
