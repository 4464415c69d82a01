import type { CriterionAgreement } from '../../metrics/agreement/index.js';
import { formatInterval, type Interval } from '../../metrics/uncertainty/index.js';
import { renderTextTable } from '../../report/text-table.js';
import type { IccResult, TaskValidation } from './judge-validation.js';

/** `87.1 [84.0, 90.2]` of anything with an estimate and bounds (×100); an ICC (×1) `0.87 [0.80, 0.92]`. */
function shown(
  interval: Pick<Interval, 'estimate' | 'lower' | 'upper'>,
  scale: 'percent' | 'icc' = 'percent',
): string {
  if (!Number.isFinite(interval.estimate)) return 'undefined';
  const options = scale === 'percent' ? { factor: 100, digits: 1 } : { factor: 1, digits: 2 };
  const full = {
    ...interval,
    level: 0.95,
    method: 'none' as const,
    resamples: null,
    seed: null,
    units: 0,
    n: 0,
  };
  return formatInterval(full, options);
}

/** A kappa ×100 with its interval, or why it has none (its rare category missed by too many resamples). */
function shownKappa(kappa: CriterionAgreement['kappa']): string {
  if (Number.isFinite(kappa.estimate) && kappa.method === 'none' && kappa.undefinedResamples > 0)
    return `${(100 * kappa.estimate).toFixed(1)} (no interval: κ undefined in ${(100 * kappa.undefinedResamples).toFixed(0)}% of resamples)`;
  return shown(kappa);
}

const percent = (share: number) => (Number.isFinite(share) ? (100 * share).toFixed(0) : '—');

/** Per criterion: the jury's kappa, each juror's, the met rates of jury and people, and the pairs. */
function criterionTable(validation: TaskValidation): string {
  const labels = Object.keys(validation.criteria.judges);
  const rows = validation.criteria.jury.map((jury) => {
    const judge = (label: string) =>
      validation.criteria.judges[label]!.find((entry) => entry.criterion === jury.criterion);
    const kappa = (entry: CriterionAgreement | undefined) => (entry ? shownKappa(entry.kappa) : '—');
    return [
      jury.criterion,
      kappa(jury),
      ...(labels.length > 1 ? labels.map((label) => kappa(judge(label))) : []),
      percent(jury.judgeRate),
      percent(jury.humanRate),
      `${jury.n} (${jury.items} items)`,
    ];
  });
  const header = [
    'Criterion',
    'Jury κ×100',
    ...(labels.length > 1 ? labels.map((label) => `${label} κ×100`) : []),
    'Judge met %',
    'People met %',
    'Pairs',
  ];
  return renderTextTable(header, rows);
}

function iccLine(icc: IccResult): string {
  if ('reason' in icc) return `ICC of judge vs people scores: none (${icc.reason}).`;
  return `ICC(A,1) of the judge score vs the people's mean score: ${shown(icc.agreement, 'icc')} over ${icc.items} items (ICC(C,1), forgiving a constant offset: ${shown(icc.consistency, 'icc')}).`;
}

function peopleLines(people: TaskValidation['people']): string[] {
  if (people.items === 0) return ['People vs people: no item was graded by two people.'];
  const icc =
    'reason' in people.icc
      ? `ICC(1,1): none (${people.icc.reason})`
      : `ICC(1,1) of their scores ${shown(people.icc.oneWay, 'icc')}`;
  const kappas = people.criteria.map((entry) => `${entry.criterion} ${shownKappa(entry.kappa)}`).join('; ');
  return [`People vs people on ${people.items} double-rated items: ${icc}; κ×100 per criterion: ${kappas}.`];
}

/** Per run: the judge score, the people alone, the corrected score and the labelled share, with warnings. */
function runTable(validation: TaskValidation, labels: Readonly<Record<string, string>>): string[] {
  const rows = validation.runs.map((run) => [
    labels[run.runId] ?? run.runId,
    run.judgeScore ? shown(run.judgeScore) : '—',
    run.peopleOnly ? shown(run.peopleOnly) : '—',
    run.corrected && run.enough ? shown(run.corrected) : run.corrected ? 'see warning' : '—',
    `${run.labelled}/${run.answered} (${percent(run.labelledShare)}%)`,
    String(run.notAnswered),
    String(run.unscored),
  ]);
  const table = renderTextTable(
    ['Run', 'Judge score', 'People only', 'Corrected (PPI++)', 'Labelled', 'Not answered (0)', 'Unscored'],
    rows,
  );
  const warnings = validation.runs.flatMap((run) => {
    if (!run.warning) return [];
    const value =
      run.corrected && !run.enough ? ` (the number would be ${shown(run.corrected)}: do not report it)` : '';
    return [`  warning, ${labels[run.runId] ?? run.runId}: ${run.warning}${value}.`];
  });
  return [table.trimEnd(), ...warnings];
}

/** The text `judge-validate` prints: per task, the agreement tables and the per-run scores (×100, 95% intervals). */
export function renderJudgeValidation(
  tasks: readonly TaskValidation[],
  options: { labels: Readonly<Record<string, string>>; otherRubric: Readonly<Record<string, number>> },
): string {
  const blocks = tasks.map((validation) => {
    const left = options.otherRubric[validation.task] ?? 0;
    const heading = `${validation.task}: ${validation.labelled} answers graded by people, ${validation.doubleRated} by two or more${left > 0 ? `; ${left} grades by another rubric than the judge's left out` : ''}`;
    if (validation.labelled === 0) return `${heading}.\n${runTable(validation, options.labels).join('\n')}\n`;
    return [
      `${heading}.`,
      "Judge vs people per criterion (Cohen's κ ×100 [95% interval] of the jury's majority verdict; undefined when judge and people each gave one answer throughout; met % of the pairs):",
      criterionTable(validation).trimEnd(),
      iccLine(validation.icc),
      ...peopleLines(validation.people),
      "Scores ×100 [95% interval], on the judge score's footing (docs/judge-validate.md):",
      ...runTable(validation, options.labels),
      '',
    ].join('\n');
  });
  return `${blocks.join('\n')}`;
}
