import type { RunRecord } from './run-record.js';

/**
 * How the scores of one sample's epochs become its score, by name: `mean`, `majority` (the most
 * frequent score, ties to the lowest), `max`, or `pass@k` (the unbiased estimator; an epoch passes
 * when its score is 1). `src/metrics/uncertainty`'s `reduceEpochs` computes them.
 */
export type EpochReducerName = 'mean' | 'majority' | 'max' | `pass@${number}`;

/** A run's epochs as its parameters keep them (`epochs`, `epochReducers`): absent for a single-epoch run. */
export interface EpochSettings {
  /** K: how many times each sample was answered. */
  count: number;
  /** The reducer of each task of the run. */
  reducers: Readonly<Record<string, EpochReducerName>>;
}

/** Between a sample's id and its epoch in the id of an epoch's result (`q12#epoch2`); epoch 1 keeps the sample's id. */
export const EPOCH_MARK = '#epoch';

/** The id an epoch's result is stored under: the sample's own for epoch 1, `<id>#epoch<e>` after. */
export function epochSampleId(sampleId: string, epoch: number): string {
  return epoch === 1 ? sampleId : `${sampleId}${EPOCH_MARK}${epoch}`;
}

const EPOCH_ID = /^(.*)#epoch([1-9][0-9]*)$/s;

/** The sample and epoch of a stored result's id (`q12#epoch2` → q12, 2; `q12` → q12, 1). */
export function epochOfSampleId(id: string): { sampleId: string; epoch: number } {
  const match = EPOCH_ID.exec(id);
  return match ? { sampleId: match[1]!, epoch: Number(match[2]) } : { sampleId: id, epoch: 1 };
}

/** The epochs of a run, from its parameters; undefined for a run of one epoch (every run before epochs). */
export function epochSettingsOf(run: Pick<RunRecord, 'parameters'>): EpochSettings | undefined {
  const count = run.parameters.epochs;
  const reducers = run.parameters.epochReducers;
  if (typeof count !== 'number' || count < 2 || typeof reducers !== 'object' || reducers === null)
    return undefined;
  return { count, reducers: reducers as Record<string, EpochReducerName> };
}

/** `3 epochs, majority` — or, when tasks differ, `3 epochs, majority (mednli, medqa), mean (medisumqa)`. */
export function describeEpochs(settings: EpochSettings): string {
  const tasksBy = new Map<string, string[]>();
  for (const [task, reducer] of Object.entries(settings.reducers))
    tasksBy.set(reducer, [...(tasksBy.get(reducer) ?? []), task]);
  const reducers =
    tasksBy.size === 1
      ? [...tasksBy.keys()]
      : [...tasksBy].map(([reducer, tasks]) => `${reducer} (${tasks.sort().join(', ')})`);
  return `${settings.count} epochs, ${reducers.join(', ')}`;
}
