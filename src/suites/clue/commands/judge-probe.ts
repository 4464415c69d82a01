import type { RunHooks } from '../../../compose/run-model.js';
import type { RunRecord, StoredResult } from '../../../core/run-record.js';
import { type ProbeGrade, probeSensitivity } from '../../../metrics/judge/probe-sensitivity.js';
import { reportInterval, scaleInterval } from '../../../metrics/uncertainty/index.js';
import type { Store } from '../../../store/store.js';
import type { JudgeProbeRecord, StoredSensitivity } from '../clue-judge-sensitivity.js';
import { DEFAULT_PAD_FACTOR, JUDGE_PROBES, type JudgeProbe, padAnswer } from '../judge-probes.js';
import { JUDGE_METRIC, type JudgeParsed } from '../judge-task.js';
import { judgeSamplesOf } from './judge-items.js';
import {
  type JudgeModelRequest,
  type JudgeRunPlan,
  type Judging,
  openJudging,
  runJudges,
} from './judging.js';

export interface JudgeProbeRequest extends JudgeModelRequest {
  /** The probes to run (default: every one). */
  probes?: JudgeProbe[];
  /** The padding probe's length factor (default DEFAULT_PAD_FACTOR). */
  padFactor?: number;
}

/** What a probing did: the records written to the run (none when a judge run was stopped). */
export interface JudgeProbeOutcome {
  /** The graded run's label. */
  label: string;
  written: boolean;
  records: JudgeProbeRecord[];
}

/** The probe's samples: the swap's block order, or each answer padded (an item no sentence may pad is left out). */
function probeSamples(judging: Judging, probe: JudgeProbe, factor: number) {
  const { items, rubrics } = judging;
  if (probe === 'swap') return judgeSamplesOf(items, rubrics, { answerFirst: true });
  const padded = items.flatMap((item) => {
    const answer = padAnswer(item.answer, { sampleId: item.sampleId, reference: item.reference, factor });
    return answer === null ? [] : [{ ...item, answer }];
  });
  return judgeSamplesOf(padded, rubrics);
}

/** A judge's grade of an item from its stored result: score and criteria met, or why it has none. */
function gradeOf(result: StoredResult | undefined): ProbeGrade | undefined {
  if (!result) return undefined;
  const parsed = result.parsed as JudgeParsed | null;
  const score = result.scores[JUDGE_METRIC];
  if (result.status === 'ok' && parsed && 'verdicts' in parsed && score !== undefined)
    return {
      score,
      met: new Set(parsed.verdicts.filter((verdict) => verdict.met).map((verdict) => verdict.id)),
    };
  return { unscored: parsed && 'unscored' in parsed ? parsed.unscored : result.status };
}

/** The sensitivity of one probe run against the plain run of the same judge, per task, as stored (×100). */
function sensitivityOf(
  store: Store,
  judging: Judging,
  runs: { plain: RunRecord; probe: RunRecord },
): Record<string, StoredSensitivity> {
  return Object.fromEntries(
    judging.tasks.map((task) => {
      const pairs = judging.items
        .filter((item) => item.task === task)
        .map((item) => ({
          plain: gradeOf(store.result(runs.plain.id, item.sampleId)),
          probe: gradeOf(store.result(runs.probe.id, item.sampleId)),
        }));
      const criteria = judging.rubrics[task].rubric.criteria.map((criterion) => criterion.id);
      const { change, ...rest } = probeSensitivity(pairs, criteria);
      const scaled = change
        ? { ...reportInterval(change, 100), estimate: scaleInterval(change, 100).estimate, p: change.p }
        : null;
      return [task, { ...rest, change: scaled }];
    }),
  );
}

/** The records kept before, less those of the same judge and probe as a new one. */
function mergedRecords(previous: unknown, records: readonly JudgeProbeRecord[]): unknown[] {
  const kept = (Array.isArray(previous) ? previous : []).filter(
    (old: { judge?: unknown; probe?: unknown }) =>
      !records.some((record) => record.judge === old.judge && record.probe === old.probe),
  );
  return [...kept, ...records];
}

/** The plain run and one run per probe of each judge, in that order. */
function probePlans(judging: Judging, probes: readonly JudgeProbe[], factor: number): JudgeRunPlan[] {
  const plain = judgeSamplesOf(judging.items, judging.rubrics);
  const samples = new Map(probes.map((probe) => [probe, probeSamples(judging, probe, factor)]));
  return judging.judges.flatMap((judge) => [
    { judge, samples: plain },
    ...probes.map((probe) => ({
      judge,
      samples: samples.get(probe)!,
      probe: probe === 'padding' ? { name: probe, padFactor: factor } : { name: probe },
    })),
  ]);
}

/**
 * `medbench judge-probe <run> --model <judge>[,<judge>…]`: each judge's plain grading (reused when
 * made) and its grading under each probe, every one a judge run through the runner; then per judge
 * × task × probe the paired change of its score, stored on the graded run (`parameters.judgeProbes`)
 * — never its `judge` metric nor `parameters.judge` (docs/judge-probes.md).
 */
export async function judgeProbe(
  request: JudgeProbeRequest,
  hooks: RunHooks = {},
): Promise<JudgeProbeOutcome> {
  const judging = await openJudging(request);
  const { store, run } = judging;
  try {
    const probes = request.probes ?? [...JUDGE_PROBES];
    const factor = request.padFactor ?? DEFAULT_PAD_FACTOR;
    const plans = probePlans(judging, probes, factor);
    const { judgeRuns, complete } = await runJudges(judging, plans, request, hooks);
    if (!complete) return { label: run.label, written: false, records: [] };
    // Per judge, its plain run then one run per probe, in the plans' order.
    const records = judging.judges.flatMap((judge, at) => {
      const [plain, ...probed] = judgeRuns.slice(at * (1 + probes.length), (at + 1) * (1 + probes.length));
      return probes.map(
        (probe, index): JudgeProbeRecord => ({
          judge: judge.label,
          judgeRun: plain!.id,
          probe,
          ...(probe === 'padding' ? { padFactor: factor } : {}),
          probeRun: probed[index]!.id,
          tasks: sensitivityOf(store, judging, { plain: plain!, probe: probed[index]! }),
        }),
      );
    });
    const current = store.getRun(run.id)!.parameters;
    store.updateRunParameters(run.id, {
      ...current,
      judgeProbes: mergedRecords(current.judgeProbes, records),
    });
    return { label: run.label, written: true, records };
  } finally {
    store.close();
  }
}
