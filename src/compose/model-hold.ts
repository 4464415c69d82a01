import { MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { sleep } from '../runner/retry.js';
import { CLAIM_LEASE_MS, type ModelHolder, RequestClaims } from '../store/request-claims.js';
import type { Store } from '../store/store.js';

/** How often a batched run waiting for another process's hold on its model looks again. */
export const HOLD_POLL_MS = 1_000;

/**
 * What a hold covers: the model as the response cache keys its answers (provider and model id),
 * whichever endpoints reach it, since a run looks an answer up on every endpoint of its binding.
 */
export function modelScope(model: ModelBinding): string {
  return JSON.stringify([model.provider, model.modelId]);
}

/** `medbench process 4242 on host-a`: the holder as a person finds it (`ps`, `kill`). */
function described(holder: ModelHolder): string {
  return `medbench process ${holder.pid} on ${holder.host}`;
}

/**
 * `run --batch`'s hold on its model, before it chooses what to submit: one process at a time
 * chooses, submits and drives a model's batches on a home, and none while a run without --batch
 * sends that model's requests, so no request is submitted (nor paid for) twice. Held by another
 * live process, it waits (telling whom it waits for) and then goes on with what is left: the
 * first's batches are then done (their answers in the response cache) or open (this run resumes
 * them). A killed holder's hold is taken over at once on the same machine, or after its lease
 * (30 s) from another. Returns the release, or undefined when stopped while waiting.
 */
export async function holdForBatches(
  store: Store,
  model: ModelBinding,
  hooks: { stopSignal?: AbortSignal | undefined; onNotice?: ((text: string) => void) | undefined },
): Promise<(() => void) | undefined> {
  const claims = RequestClaims.beside(store.path);
  const scope = modelScope(model);
  let told = '';
  try {
    for (let holder = claims.holdModel(scope, 'batch'); holder; holder = claims.holdModel(scope, 'batch')) {
      const line = `Batch mode: ${described(holder)} is ${holder.kind === 'batch' ? "submitting this model's batches" : 'running this model without --batch'} on this home (${model.label}); waiting for it to end, then this run goes on with what is left (nothing is submitted twice). Ctrl-C stops waiting.`;
      if (line !== told) hooks.onNotice?.(line);
      told = line;
      await sleep(HOLD_POLL_MS, hooks.stopSignal);
    }
  } catch (error) {
    claims.close();
    if (hooks.stopSignal?.aborted) return undefined;
    throw error;
  }
  const renewal = setInterval(() => {
    try {
      claims.renew();
    } catch {
      // Busy past the timeout: the next renewal tries again, well within the lease.
    }
  }, CLAIM_LEASE_MS / 3);
  renewal.unref();
  return () => {
    clearInterval(renewal);
    claims.releaseAll();
    claims.close();
  };
}

/**
 * A run without --batch holds its model (beside any other such run) with `claims`, its request
 * claims: refused while another live process submits that model's batches on this home, which
 * could hold (or be about to submit) the very requests this run would send and pay for again.
 */
export function holdForSync(claims: RequestClaims, model: ModelBinding): void {
  const holder = claims.holdModel(modelScope(model), 'sync');
  if (!holder) return;
  throw new MedbenchError({
    code: 'USAGE',
    message: `${described(holder)} is submitting ${model.label}'s requests in provider batches on this home: without --batch this run could send the same requests and pay for them twice.`,
    hint: `Wait for process ${holder.pid} to end, then run again (its answers are in the response cache); or run with --batch, which waits for it and takes its answers.`,
  });
}
