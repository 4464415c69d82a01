import type { EndpointFacts } from '../core/chat-model.js';
import { isEndpointOutage, MedbenchError } from '../core/errors.js';

/**
 * What a probe does with its request's failure: refused credentials stop the run (the error names
 * the key), a 404 is a model or deployment that is not there (`MODEL_NOT_FOUND`, with `notFound`'s
 * words where given), an outage (unreachable, reset, timed out, 5xx) is thrown for the check to
 * judge (with several endpoints that one rests); anything else leaves the run to find out.
 */
export function settleProbe(
  error: unknown,
  notFound: { message?: string; hint?: string } = {},
): EndpointFacts {
  if (!MedbenchError.is(error)) return {};
  if (error.code === 'ENDPOINT_AUTH' || isEndpointOutage(error)) throw error;
  if (error.status === 404) {
    const hint = notFound.hint ?? error.hint;
    throw new MedbenchError({
      code: 'MODEL_NOT_FOUND',
      message: notFound.message ?? error.message,
      ...(hint ? { hint } : {}),
    });
  }
  return {};
}
