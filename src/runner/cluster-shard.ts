import { MedbenchError } from '../core/errors.js';
import { parseShard, type Shard } from './shard.js';

/** The variables `--shard auto` reads (the CLI passes `process.env`). */
export type ShardEnvironment = Readonly<Record<string, string | undefined>>;

/** The completions count of a Kubernetes Indexed Job: Kubernetes gives the pod only its index. */
export const SHARD_COUNT_VARIABLE = 'MEDBENCH_SHARD_COUNT';

const KUBERNETES_INDEX = 'JOB_COMPLETION_INDEX';
const SLURM_TASK = 'SLURM_ARRAY_TASK_ID';
const FALLBACK = 'or give the shard yourself with --shard i/n (1 ≤ i ≤ n)';

/**
 * `--shard`'s value: `i/n` (`parseShard`), or `auto`, the shard of the Kubernetes Indexed Job or
 * Slurm array this process runs in, read from `environment` (`shardFromEnvironment`).
 */
export function parseShardOption(text: string, environment: ShardEnvironment): Shard {
  return text.trim() === 'auto' ? shardFromEnvironment(environment) : parseShard(text);
}

/**
 * This machine's shard from the job it runs in: a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`,
 * 0 to completions − 1, with the completions count in `MEDBENCH_SHARD_COUNT`) or a Slurm array
 * (`SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_MIN`, `_MAX`, `_STEP` and `_COUNT`: `--array=1-8`
 * or `--array=0-15:4` too). Index 0 (the array's lowest id) is shard 1, as in `--shard 1/n`.
 * Anything missing, malformed or inconsistent is a usage error naming the variable.
 */
export function shardFromEnvironment(environment: ShardEnvironment): Shard {
  const kubernetes = present(environment, KUBERNETES_INDEX);
  const slurm = present(environment, SLURM_TASK);
  if (kubernetes && slurm)
    throw usage(
      `both ${KUBERNETES_INDEX}=${kubernetes} (a Kubernetes Indexed Job) and ${SLURM_TASK}=${slurm} (a Slurm array) are set, so the shard is ambiguous`,
      `unset the one that does not describe this job, ${FALLBACK}.`,
    );
  const shard = kubernetes ? kubernetesShard(environment) : slurm ? slurmShard(environment) : undefined;
  if (!shard)
    throw usage(
      `neither ${KUBERNETES_INDEX} (a Kubernetes Indexed Job) nor ${SLURM_TASK} (a Slurm array) is set`,
      `run it in an Indexed Job (completionMode: Indexed, with ${SHARD_COUNT_VARIABLE} set to the Job's completions) or in sbatch --array, ${FALLBACK}.`,
    );
  const declared = present(environment, SHARD_COUNT_VARIABLE);
  if (slurm && declared !== undefined && wholeNumber(environment, SHARD_COUNT_VARIABLE) !== shard.count)
    throw usage(
      `${SHARD_COUNT_VARIABLE}=${declared} but the Slurm array has ${shard.count} tasks`,
      `unset ${SHARD_COUNT_VARIABLE} (a Slurm array gives its own count) or make them agree.`,
    );
  return shard;
}

function kubernetesShard(environment: ShardEnvironment): Shard {
  const index = wholeNumber(environment, KUBERNETES_INDEX);
  if (present(environment, SHARD_COUNT_VARIABLE) === undefined)
    throw usage(
      `${KUBERNETES_INDEX}=${index} is set, but a Kubernetes pod is not told its Job's completions count`,
      `set ${SHARD_COUNT_VARIABLE} to the Job's spec.completions in the pod template's env, ${FALLBACK}.`,
    );
  const count = wholeNumber(environment, SHARD_COUNT_VARIABLE, { min: 1 });
  if (index >= count)
    throw usage(
      `${KUBERNETES_INDEX}=${index} is not below ${SHARD_COUNT_VARIABLE}=${count} (an Indexed Job's indexes run from 0 to completions − 1)`,
      `set ${SHARD_COUNT_VARIABLE} to the Job's spec.completions, ${FALLBACK}.`,
    );
  return {
    index: index + 1,
    count,
    from: `Kubernetes ${KUBERNETES_INDEX}=${index}, ${SHARD_COUNT_VARIABLE}=${count}`,
  };
}

function slurmShard(environment: ShardEnvironment): Shard {
  const id = wholeNumber(environment, SLURM_TASK);
  const count = wholeNumber(environment, 'SLURM_ARRAY_TASK_COUNT', { min: 1 });
  const min = wholeNumber(environment, 'SLURM_ARRAY_TASK_MIN');
  const max = wholeNumber(environment, 'SLURM_ARRAY_TASK_MAX');
  // Slurm sets the step from `--array=a-b:step`, else 1.
  const step =
    present(environment, 'SLURM_ARRAY_TASK_STEP') === undefined
      ? 1
      : wholeNumber(environment, 'SLURM_ARRAY_TASK_STEP', { min: 1 });
  const found = `SLURM_ARRAY_TASK_MIN=${min}, SLURM_ARRAY_TASK_MAX=${max}, SLURM_ARRAY_TASK_STEP=${step}, SLURM_ARRAY_TASK_COUNT=${count}`;
  if (max !== min + step * (count - 1))
    throw usage(
      `the Slurm array is not one evenly stepped range (${found}), so its tasks do not number the shards 1 to ${count}`,
      `submit it as --array=0-${count - 1} (or a-b, or a-b:step), ${FALLBACK}.`,
    );
  if (id < min || id > max || (id - min) % step !== 0)
    throw usage(
      `${SLURM_TASK}=${id} is not one of the array's ids (${found})`,
      `submit it as --array=0-${count - 1}, ${FALLBACK}.`,
    );
  const index = (id - min) / step + 1;
  return { index, count, from: `Slurm ${SLURM_TASK}=${id} of ${min}-${max}:${step}` };
}

/** A variable's value, trimmed; undefined when unset or empty. */
function present(environment: ShardEnvironment, name: string): string | undefined {
  const value = environment[name]?.trim();
  return value ? value : undefined;
}

/** A variable as a whole number in decimal digits, at least `min`. */
function wholeNumber(environment: ShardEnvironment, name: string, rule: { min?: number } = {}): number {
  const value = present(environment, name);
  const min = rule.min ?? 0;
  const number = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min)
    throw usage(
      value === undefined
        ? `${name} is not set`
        : `${name}=${JSON.stringify(environment[name])} is not a whole number${min > 0 ? ` of at least ${min}` : ''}`,
      `check the job's environment (medbench reads ${name} there), ${FALLBACK}.`,
    );
  return number;
}

function usage(problem: string, fix: string): MedbenchError {
  return new MedbenchError({ code: 'USAGE', message: `--shard auto: ${problem}; ${fix}` });
}
