import { MedbenchError } from '../../core/errors.js';
import { abortFailure, isRetryableStatus, parseRetryAfter, redactCredentials } from '../http-json.js';

/** What the AWS SDK's errors carry that medbench reads. */
interface AwsError {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
  $retryable?: unknown;
}

const AUTH_HINT =
  'Bedrock signs with the AWS credential chain: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), or AWS_PROFILE / the config\'s "profile", or run where an instance or task role applies; the identity needs bedrock:InvokeModel on the model.';

/** Network failures the SDK passes through from Node (no answer from the server at all). */
const UNREACHABLE =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|ETIMEDOUT|EPIPE)$/;

/**
 * An AWS SDK failure as the runner reads it: auth (not retried, credential hint), a model the
 * region does not serve (not retried, the setting named), throttling and 5xx (retried, with
 * Retry-After where given), time-outs, stops and unreachable endpoints.
 */
export function bedrockFailure(
  caught: unknown,
  where: { shown: string; modelId: string; region: string | undefined; signal?: AbortSignal | undefined },
): MedbenchError {
  if (MedbenchError.is(caught)) return caught;
  const aborted = abortFailure(caught, where.shown, where.signal);
  if (aborted) return aborted;
  const error = (caught ?? {}) as AwsError;
  const text = redactCredentials(`${error.name ?? 'Error'}: ${error.message ?? String(caught)}`).slice(
    0,
    300,
  );
  if (error.name === 'CredentialsProviderError')
    return new MedbenchError({
      code: 'ENDPOINT_AUTH',
      message: `No AWS credentials for ${where.shown}: ${text}`,
      hint: AUTH_HINT,
    });
  const status = error.$metadata?.httpStatusCode;
  if (UNREACHABLE.test(error.code ?? '') || UNREACHABLE.test(error.name ?? ''))
    return new MedbenchError({
      code: 'ENDPOINT_UNREACHABLE',
      message: `Cannot reach ${where.shown} (${error.code ?? error.name}).`,
      hint: 'Check the region (or endpointURL) and the network route to Bedrock.',
      retryable: true,
      cause: caught,
    });
  if (status === undefined || (status >= 200 && status < 300)) {
    // The SDK could not read the answer (not JSON, cut off): try again.
    return new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: `${where.shown}: ${text}`,
      retryable: true,
      cause: caught,
    });
  }
  if (status === 401 || status === 403)
    return new MedbenchError({
      code: 'ENDPOINT_AUTH',
      message: `${where.shown} refused the credentials (HTTP ${status}): ${text}`,
      hint: AUTH_HINT,
      status,
    });
  const header = error.$response?.headers?.['retry-after'];
  const retryAfterMs = parseRetryAfter(header ?? null);
  const modelProblem = status === 404 || (status === 400 && /model/i.test(error.message ?? ''));
  return new MedbenchError({
    code: 'ENDPOINT_HTTP',
    message: `${where.shown} answered HTTP ${status}: ${text}`,
    ...(modelProblem
      ? {
          hint: `Check "model" ("${where.modelId}": a Bedrock model id or inference profile, e.g. anthropic.claude-3-5-sonnet-20240620-v1:0) and that region ${where.region ?? '(unset)'} serves it with access granted.`,
        }
      : {}),
    retryable: isRetryableStatus(status),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    status,
  });
}

/**
 * Bedrock's answer to a model id it does not know: HTTP 400 ValidationException "The provided
 * model identifier is invalid." (other ValidationExceptions, such as a model that cannot count
 * tokens, are not this).
 */
export function isInvalidModelId(error: MedbenchError): boolean {
  return error.status === 400 && /The provided model identifier is invalid/i.test(error.message);
}

/**
 * A failure of an S3 call of batch inference (`shown`: the S3 URI): a refused or missing bucket
 * or key names the settings to check instead of the model.
 */
export function s3Failure(error: MedbenchError): MedbenchError {
  if (error.status !== 403 && error.status !== 404) return error;
  return new MedbenchError({
    code: error.code,
    message: error.message,
    hint: 'Check "batchS3Uri" (and "batchOutputS3Uri"): the bucket must exist in the model\'s region, and the AWS identity medbench runs as may put, list and get objects under it.',
    retryable: false,
    status: error.status,
    cause: error,
  });
}
