import { type EpochReducerName, epochSampleId } from '../core/epochs.js';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import { providerNamed } from '../providers/registry.js';
import { canonicalJson } from '../runner/canonical-json.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { sha256 } from '../store/prepared-prompt.js';

/** What `epochPlan` reads of a run's plan (`RunPlan`). */
export interface EpochPlanInput {
  run: RunRecord;
  samples: readonly Sample[];
  work: { kind: 'model'; model: ModelBinding; tasks: Readonly<Record<string, Task>> } | { kind: 'computed' };
}

/** `--epochs` and `--epoch-reducer` of a run (`RunRequest`). */
export interface EpochRequest {
  /** K: answer each sample K times (default 1: as every run before epochs). */
  epochs?: number;
  /** How a sample's K scores become its score; absent: each task's own (`Task.epochReducer`, else mean). */
  epochReducer?: EpochReducerName;
}

/** `--epoch-reducer`'s text as a reducer: mean, majority, max or pass@k (1 ≤ k). */
export function parseEpochReducer(text: string): EpochReducerName {
  const trimmed = text.trim();
  if (trimmed === 'mean' || trimmed === 'majority' || trimmed === 'max') return trimmed;
  const passAt = /^pass@([1-9][0-9]*)$/.exec(trimmed);
  if (passAt) return `pass@${Number(passAt[1])}`;
  throw new MedbenchError({
    code: 'USAGE',
    message: `--epoch-reducer ${text}: give mean, majority, max or pass@k (k an integer from 1, at most --epochs).`,
  });
}

/** Whether the model's provider sends a `seed` (OpenAI-compatible `seed`, Gemini `seed`, Ollama `options.seed` …). */
function takesSeed(model: ModelBinding): boolean {
  const settings = providerNamed(model.provider)?.generationSettings;
  return typeof settings === 'object' && settings.seed !== undefined;
}

/** K answers of a sample that all come out the same are money spent for nothing: refused before anything is sent. */
function checkEpochs(plan: EpochPlanInput, request: EpochRequest, epochs: number): void {
  if (!Number.isInteger(epochs) || epochs < 1)
    throw new MedbenchError({ code: 'USAGE', message: `--epochs ${epochs}: give an integer from 1.` });
  if (epochs === 1 && request.epochReducer !== undefined)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--epoch-reducer ${request.epochReducer} reduces the epochs of a sample, and the run has one (no --epochs).`,
      hint: 'Give --epochs 2 or more with it, or leave out --epoch-reducer.',
    });
  if (epochs === 1) return;
  if (plan.work.kind !== 'model')
    throw new MedbenchError({
      code: 'USAGE',
      message: `--epochs ${epochs}: the run of ${plan.run.label} is not answered by a chat model (a baseline, a retriever or an embedding model computes it, the same every time).`,
      hint: 'Leave out --epochs for this run.',
    });
  const model = plan.work.model;
  if (model.parameters.temperature === 0 && !takesSeed(model))
    throw new MedbenchError({
      code: 'USAGE',
      message: `--epochs ${epochs} at temperature 0: ${model.provider} takes no seed, so each of the ${epochs} answers of a sample would be the same (and paid ${epochs} times).`,
      hint: 'Give a temperature above 0 (--temperature 0.7), or leave out --epochs.',
    });
  const passAt = /^pass@(\d+)$/.exec(request.epochReducer ?? '');
  if (passAt && Number(passAt[1]) > epochs)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--epoch-reducer ${request.epochReducer} needs at least ${passAt[1]} epochs; --epochs is ${epochs}.`,
      hint: `Give --epochs ${passAt[1]} or more, or a smaller k.`,
    });
}

/**
 * The reducer of each task of the run: `--epoch-reducer`, else the task's own default (majority for
 * a task scored right or wrong, mean for graded scores: `Task.epochReducer`), else mean.
 */
function reducersOf(
  samples: readonly Sample[],
  tasks: Readonly<Record<string, Task>>,
  reducer: EpochReducerName | undefined,
): Record<string, EpochReducerName> {
  const names = [...new Set(samples.map((sample) => sample.task))].sort();
  return Object.fromEntries(names.map((name) => [name, reducer ?? tasks[name]?.epochReducer ?? 'mean']));
}

/** Each sample's K epochs, side by side: epoch 1 as the sample is, epoch e > 1 under its own id and seed. */
function epochSamples(samples: readonly Sample[], epochs: number, seed: number | undefined): Sample[] {
  return samples.flatMap((sample) =>
    Array.from({ length: epochs }, (_, index) => {
      const epoch = index + 1;
      if (epoch === 1) return sample;
      return {
        ...sample,
        id: epochSampleId(sample.id, epoch),
        epoch: seed === undefined ? { index: epoch } : { index: epoch, seed: seed + index },
      };
    }),
  );
}

/**
 * `--epochs K` (K > 1): the plan whose samples are each sample K times — epoch 1 the request a
 * run without epochs sends (same cache key), epoch e > 1 a request of its own (its cache key
 * covers the epoch) with the seed the configured one + e − 1 where the provider takes a seed —
 * each stored as a result of its own (`<id>#epoch<e>`), so a re-run sends only missing epochs.
 * The run is another run (its id covers K and the reducers); its report reduces each sample's
 * epochs (`epochSettingsOf`). K = 1 (or absent): the plan as it is.
 */
export function epochPlan<Plan extends EpochPlanInput>(plan: Plan, request: EpochRequest): Plan {
  const epochs = request.epochs ?? 1;
  checkEpochs(plan, request, epochs);
  if (epochs === 1 || plan.work.kind !== 'model') return plan;
  const epochReducers = reducersOf(plan.samples, plan.work.tasks, request.epochReducer);
  const parameters = { ...plan.run.parameters, epochs, epochReducers };
  const model = plan.work.model;
  const seed = takesSeed(model) ? (model.parameters.seed ?? 0) : undefined;
  const samples = epochSamples(plan.samples, epochs, seed);
  return {
    ...plan,
    run: {
      ...plan.run,
      id: sha256(canonicalJson({ run: plan.run.id, epochs, epochReducers })).slice(0, 16),
      parameters,
    },
    samples,
  };
}
