import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { onlyMedbenchErrorsSync } from '../../test/support/fuzz.js';
import { parseShardOption, type ShardEnvironment, shardFromEnvironment } from './cluster-shard.js';
import { samplesOfShard } from './shard.js';

/**
 * The environment Slurm gives task `id` of `sbatch --array=<min>-<max>[:step]`: its MAX is the
 * highest id the array holds (12 for 0-15:4), as slurmctld sets it.
 */
function slurmTask(id: number, array: { min: number; max: number; step?: number }): ShardEnvironment {
  const step = array.step ?? 1;
  const count = Math.floor((array.max - array.min) / step) + 1;
  return {
    SLURM_ARRAY_TASK_ID: String(id),
    SLURM_ARRAY_TASK_MIN: String(array.min),
    SLURM_ARRAY_TASK_MAX: String(array.min + (count - 1) * step),
    SLURM_ARRAY_TASK_STEP: String(step),
    SLURM_ARRAY_TASK_COUNT: String(count),
  };
}

/** The usage error's message, or a failure when there was none. */
function refusal(environment: ShardEnvironment): string {
  const error = onlyMedbenchErrorsSync(() => shardFromEnvironment(environment));
  expect(error?.code).toBe('USAGE');
  return error!.message;
}

describe('--shard auto: a Kubernetes Indexed Job', () => {
  it('JOB_COMPLETION_INDEX 0 to completions − 1 are shards 1 to n of MEDBENCH_SHARD_COUNT', () => {
    const shards = [0, 1, 2].map((index) =>
      shardFromEnvironment({ JOB_COMPLETION_INDEX: String(index), MEDBENCH_SHARD_COUNT: '3' }),
    );
    expect(shards).toEqual([
      { index: 1, count: 3, from: 'Kubernetes JOB_COMPLETION_INDEX=0, MEDBENCH_SHARD_COUNT=3' },
      { index: 2, count: 3, from: 'Kubernetes JOB_COMPLETION_INDEX=1, MEDBENCH_SHARD_COUNT=3' },
      { index: 3, count: 3, from: 'Kubernetes JOB_COMPLETION_INDEX=2, MEDBENCH_SHARD_COUNT=3' },
    ]);
  });

  it('refuses a missing count, an index past it and values that are not whole numbers, naming the variable', () => {
    expect(refusal({ JOB_COMPLETION_INDEX: '1' })).toMatch(
      /JOB_COMPLETION_INDEX=1 is set, but .* completions count; set MEDBENCH_SHARD_COUNT to the Job's spec\.completions/,
    );
    expect(refusal({ JOB_COMPLETION_INDEX: '3', MEDBENCH_SHARD_COUNT: '3' })).toContain(
      'JOB_COMPLETION_INDEX=3 is not below MEDBENCH_SHARD_COUNT=3',
    );
    expect(refusal({ JOB_COMPLETION_INDEX: '-1', MEDBENCH_SHARD_COUNT: '3' })).toContain(
      'JOB_COMPLETION_INDEX="-1" is not a whole number',
    );
    expect(refusal({ JOB_COMPLETION_INDEX: '0', MEDBENCH_SHARD_COUNT: '0' })).toContain(
      'MEDBENCH_SHARD_COUNT="0" is not a whole number of at least 1',
    );
    expect(refusal({ JOB_COMPLETION_INDEX: '0', MEDBENCH_SHARD_COUNT: '2.0' })).toContain(
      'MEDBENCH_SHARD_COUNT="2.0" is not a whole number',
    );
  });
});

describe('--shard auto: a Slurm array', () => {
  it('--array=0-3: task ids 0 to 3 are shards 1 to 4', () => {
    const shards = [0, 1, 2, 3].map((id) => shardFromEnvironment(slurmTask(id, { min: 0, max: 3 })));
    expect(shards.map((shard) => `${shard.index}/${shard.count}`)).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(shards[2]!.from).toBe('Slurm SLURM_ARRAY_TASK_ID=2 of 0-3:1');
  });

  it('--array=1-8 starts at shard 1; --array=0-15:4 numbers its ids 0, 4, 8, 12 as shards 1 to 4', () => {
    expect(shardFromEnvironment(slurmTask(1, { min: 1, max: 8 }))).toMatchObject({ index: 1, count: 8 });
    expect(shardFromEnvironment(slurmTask(8, { min: 1, max: 8 }))).toMatchObject({ index: 8, count: 8 });
    const stepped = [0, 4, 8, 12].map(
      (id) => shardFromEnvironment(slurmTask(id, { min: 0, max: 15, step: 4 })).index,
    );
    expect(stepped).toEqual([1, 2, 3, 4]);
  });

  it('without SLURM_ARRAY_TASK_STEP the step is 1, as Slurm sets it', () => {
    const { SLURM_ARRAY_TASK_STEP: _, ...unstepped } = slurmTask(5, { min: 2, max: 6 });
    expect(shardFromEnvironment(unstepped)).toMatchObject({ index: 4, count: 5 });
  });

  it('refuses a list that is not one stepped range (--array=1,3,5,7), an id off it, and missing variables', () => {
    // Slurm gives --array=1,3,5,7 step 1 (no ":"), so 1 + 1 × 3 is not its max of 7.
    const list = { ...slurmTask(3, { min: 1, max: 7 }), SLURM_ARRAY_TASK_COUNT: '4' };
    expect(refusal(list)).toMatch(/not one evenly stepped range \(.*SLURM_ARRAY_TASK_COUNT=4\).*--array=0-3/);
    expect(refusal({ ...slurmTask(0, { min: 0, max: 8, step: 4 }), SLURM_ARRAY_TASK_ID: '2' })).toContain(
      "SLURM_ARRAY_TASK_ID=2 is not one of the array's ids",
    );
    const { SLURM_ARRAY_TASK_COUNT: _, ...uncounted } = slurmTask(0, { min: 0, max: 3 });
    expect(refusal(uncounted)).toContain('SLURM_ARRAY_TASK_COUNT is not set');
    expect(refusal({ ...slurmTask(0, { min: 0, max: 3 }), SLURM_ARRAY_TASK_MIN: '' })).toContain(
      'SLURM_ARRAY_TASK_MIN is not set',
    );
  });

  it('MEDBENCH_SHARD_COUNT may confirm the count, never contradict it', () => {
    const task = slurmTask(1, { min: 0, max: 3 });
    expect(shardFromEnvironment({ ...task, MEDBENCH_SHARD_COUNT: '4' })).toMatchObject({
      index: 2,
      count: 4,
    });
    expect(refusal({ ...task, MEDBENCH_SHARD_COUNT: '3' })).toContain(
      'MEDBENCH_SHARD_COUNT=3 but the Slurm array has 4 tasks',
    );
  });
});

describe('--shard auto: no job, or two', () => {
  it('refuses an environment with neither variable, or with both, saying how to give the shard', () => {
    expect(refusal({ PATH: '/usr/bin' })).toMatch(
      /neither JOB_COMPLETION_INDEX .* nor SLURM_ARRAY_TASK_ID .* is set; .*--shard i\/n/,
    );
    expect(
      refusal({ ...slurmTask(0, { min: 0, max: 1 }), JOB_COMPLETION_INDEX: '0', MEDBENCH_SHARD_COUNT: '2' }),
    ).toContain('both JOB_COMPLETION_INDEX=0 (a Kubernetes Indexed Job) and SLURM_ARRAY_TASK_ID=0');
  });

  it('--shard takes i/n as before, and auto from the environment it is given', () => {
    expect(parseShardOption('2/4', {})).toEqual({ index: 2, count: 4 });
    expect(parseShardOption('auto', { JOB_COMPLETION_INDEX: '0', MEDBENCH_SHARD_COUNT: '1' })).toMatchObject({
      index: 1,
      count: 1,
    });
    expect(onlyMedbenchErrorsSync(() => parseShardOption('auto', {}))?.code).toBe('USAGE');
  });
});

describe('--shard auto: properties', () => {
  it('every task of a Slurm array (any start and step) and every index of an Indexed Job is one shard; together they hold every sample once', () => {
    const samples = Array.from({ length: 60 }, (_, index) => ({ id: `sample-${index}` }));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 7 }),
        (count, min, step) => {
          const ids = Array.from({ length: count }, (_, position) => min + position * step);
          const slurm = ids.map((id) => shardFromEnvironment(slurmTask(id, { min, max: ids.at(-1)!, step })));
          const kubernetes = ids.map((_, index) =>
            shardFromEnvironment({
              JOB_COMPLETION_INDEX: String(index),
              MEDBENCH_SHARD_COUNT: String(count),
            }),
          );
          for (const shards of [slurm, kubernetes]) {
            expect(shards.map((shard) => shard.index)).toEqual(ids.map((_, position) => position + 1));
            expect(shards.every((shard) => shard.count === count)).toBe(true);
            const held = shards.flatMap((shard) => samplesOfShard(samples, shard).map((sample) => sample.id));
            expect(held.sort()).toEqual(samples.map((sample) => sample.id).sort());
          }
        },
      ),
    );
  });

  it('any values of the variables give a shard within 1..n or a usage error, nothing else', () => {
    const value = fc.option(fc.oneof(fc.nat({ max: 40 }).map(String), fc.string({ maxLength: 6 })), {
      nil: undefined,
    });
    const names = [
      'JOB_COMPLETION_INDEX',
      'MEDBENCH_SHARD_COUNT',
      'SLURM_ARRAY_TASK_ID',
      'SLURM_ARRAY_TASK_MIN',
      'SLURM_ARRAY_TASK_MAX',
      'SLURM_ARRAY_TASK_STEP',
      'SLURM_ARRAY_TASK_COUNT',
    ];
    fc.assert(
      fc.property(fc.tuple(...names.map(() => value)), (values) => {
        const environment = Object.fromEntries(names.map((name, index) => [name, values[index]]));
        let shard: ReturnType<typeof shardFromEnvironment> | undefined;
        const error = onlyMedbenchErrorsSync(() => {
          shard = shardFromEnvironment(environment);
        });
        if (error) expect(error.code).toBe('USAGE');
        else expect(shard!.index >= 1 && shard!.index <= shard!.count).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
