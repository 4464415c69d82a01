import { describe, expect, it } from 'vitest';
import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Sample } from '../core/sample.js';
import type { Task } from '../core/task.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { type EpochPlanInput, epochPlan, parseEpochReducer } from './epoch-plan.js';

const samples = [
  { id: 'q1', task: 'mcq' },
  { id: 'q2', task: 'summary' },
] as Sample[];
const tasks = { mcq: { epochReducer: 'majority' }, summary: {} } as unknown as Record<string, Task>;

function planOn(provider: string, parameters: Record<string, unknown>): EpochPlanInput {
  return {
    run: {
      id: 'run0',
      label: 'm',
      parameters: { temperature: parameters.temperature },
    } as unknown as RunRecord,
    samples,
    work: { kind: 'model', model: { provider, parameters } as unknown as ModelBinding, tasks },
  };
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(MedbenchError.is(error) && error.code).toBe('USAGE');
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('epochPlan', () => {
  it('K = 1 (or no --epochs) is the plan as it is: same run id, same samples', () => {
    const plan = planOn('openai-compatible', { temperature: 0 });
    expect(epochPlan(plan, {})).toBe(plan);
    expect(epochPlan(plan, { epochs: 1 })).toBe(plan);
    // A computed run (a baseline) takes --epochs 1 as it takes no --epochs.
    const computed = { ...plan, work: { kind: 'computed' as const } };
    expect(epochPlan(computed, { epochs: 1 })).toBe(computed);
  });

  it("each sample K times: epoch 1 as it is, later epochs under their own ids with the configured seed + e − 1; a run of its own naming each task's reducer", () => {
    const plan = epochPlan(planOn('openai-compatible', { temperature: 0, seed: 40 }), { epochs: 3 });
    expect(plan.samples.map((sample) => [sample.id, sample.epoch])).toEqual([
      ['q1', undefined],
      ['q1#epoch2', { index: 2, seed: 41 }],
      ['q1#epoch3', { index: 3, seed: 42 }],
      ['q2', undefined],
      ['q2#epoch2', { index: 2, seed: 41 }],
      ['q2#epoch3', { index: 3, seed: 42 }],
    ]);
    expect(plan.samples[0]).toBe(samples[0]);
    expect(plan.run.id).not.toBe('run0');
    expect(plan.run.parameters).toMatchObject({
      epochs: 3,
      epochReducers: { mcq: 'majority', summary: 'mean' },
    });
    const chosen = epochPlan(planOn('openai-compatible', { temperature: 0 }), {
      epochs: 3,
      epochReducer: 'pass@2',
    });
    expect(chosen.run.parameters.epochReducers).toEqual({ mcq: 'pass@2', summary: 'pass@2' });
    expect(chosen.run.id).not.toBe(plan.run.id);
  });

  it('a provider without a seed: no seed sent, and refused at temperature 0', () => {
    const warm = epochPlan(planOn('anthropic', { temperature: 0.7 }), { epochs: 2 });
    expect(warm.samples[1]!.epoch).toEqual({ index: 2 });
    expect(refusal(() => epochPlan(planOn('anthropic', { temperature: 0 }), { epochs: 2 }))).toContain(
      'anthropic takes no seed',
    );
  });

  it('refuses pass@k above K, a computed run, and reducers it does not know', () => {
    const plan = planOn('openai-compatible', { temperature: 0 });
    expect(refusal(() => epochPlan(plan, { epochs: 2, epochReducer: 'pass@3' }))).toContain(
      'needs at least 3 epochs',
    );
    const computed = { ...plan, work: { kind: 'computed' as const } };
    expect(refusal(() => epochPlan(computed, { epochs: 2 }))).toContain('not answered by a chat model');
    expect(refusal(() => epochPlan(plan, { epochReducer: 'max' }))).toContain(
      'the run has one (no --epochs)',
    );
    expect(parseEpochReducer('pass@3')).toBe('pass@3');
    expect(refusal(() => parseEpochReducer('median'))).toContain('mean, majority, max or pass@k');
  });
});
