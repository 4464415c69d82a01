import { MedbenchError } from '../../core/errors.js';
import { abortFailure, isRetryableStatus, redactCredentials } from '../http-json.js';

const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT)$/;

/** What the SDK's errors carry: ApiError's status, fetch's cause. */
interface SdkError {
  name?: string;
  message?: string;
  status?: number;
  cause?: { code?: string };
}

/** google.rpc.RetryInfo's delay, as the Gemini API puts it in a 429's body ("retryDelay": "2s"). */
function retryDelayMs(message: string): number | undefined {
  const seconds = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message)?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}

/**
 * A @google/genai failure as the runner reads it. The Gemini API answers a bad key with 400
 * ("API key not valid"), which is an authentication failure, not a bad request.
 */
export function geminiFailure(
  caught: unknown,
  where: {
    shown: string;
    modelId: string;
    authHint: string;
    retryAfterMs: number | undefined;
    signal?: AbortSignal | undefined;
    secrets: readonly string[];
    /** Whether a request went out (undefined: not known). */
    sent?: boolean;
  },
): MedbenchError {
  if (MedbenchError.is(caught)) return caught;
  const aborted = abortFailure(caught, where.shown, where.signal);
  if (aborted) return aborted;
  const error = (caught ?? {}) as SdkError;
  let text = `${error.message ?? String(caught)}`;
  for (const secret of where.secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
  text = redactCredentials(text).slice(0, 300);
  const code = error.cause?.code;
  if (code && UNREACHABLE.test(code))
    return new MedbenchError({
      code: 'ENDPOINT_UNREACHABLE',
      message: `Cannot reach ${where.shown} (${code}).`,
      hint: 'Check the network route to the API (and baseURL, when set).',
      retryable: true,
      cause: caught,
    });
  const status = error.status;
  if (status === undefined && where.sent === false)
    return new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `The @google/genai SDK refused the request for "${where.modelId}" before sending it (nothing was sent to ${where.shown}): ${text}`,
      hint: "A setting this API does not take (the Gemini API and Vertex AI differ): check the model's settings in medbench.config.json, or report it as a medbench bug.",
      cause: caught,
    });
  if (status === undefined)
    return new MedbenchError({
      code: error.name === 'TypeError' ? 'ENDPOINT_DISCONNECTED' : 'ENDPOINT_BAD_RESPONSE',
      message: `${where.shown}: ${text}`,
      retryable: true,
      cause: caught,
    });
  if (status === 401 || status === 403 || (status === 400 && /API key not valid|API_KEY_INVALID/i.test(text)))
    return new MedbenchError({
      code: 'ENDPOINT_AUTH',
      message: `${where.shown} refused the credentials (HTTP ${status}): ${text}`,
      hint: where.authHint,
      status,
    });
  const retryAfterMs = where.retryAfterMs ?? (status === 429 ? retryDelayMs(error.message ?? '') : undefined);
  return new MedbenchError({
    code: 'ENDPOINT_HTTP',
    message: `${where.shown} answered HTTP ${status}: ${text}`,
    ...(status === 404
      ? {
          hint: `Check "model" ("${where.modelId}", e.g. gemini-2.5-pro) and, on Vertex AI, "project" and "location".`,
        }
      : {}),
    retryable: isRetryableStatus(status),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    status,
  });
}
