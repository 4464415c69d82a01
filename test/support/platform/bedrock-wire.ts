import { randomUUID } from 'node:crypto';
import { verifySigV4 } from '../sigv4.js';
import type { Exchange } from './platform-basics.js';

/** The errors the Bedrock control plane documents for its batch-inference operations, with their status. */
export const BEDROCK_ERRORS = {
  ValidationException: 400,
  ConflictException: 400,
  ServiceQuotaExceededException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  InvalidSignatureException: 403,
  ResourceNotFoundException: 404,
  UnknownOperationException: 404,
  ThrottlingException: 429,
  InternalServerException: 500,
  // The runtime's (Converse) errors besides the above.
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ServiceUnavailableException: 503,
} as const;

export type BedrockErrorType = keyof typeof BEDROCK_ERRORS;

const DEFAULT_MESSAGES: Record<BedrockErrorType, string> = {
  ValidationException: 'Input validation failed. Check your request parameters and retry the request.',
  ConflictException: 'Error occurred because of a conflict while performing an operation.',
  ServiceQuotaExceededException:
    'The number of requests exceeds the service quota. Resubmit your request later.',
  AccessDeniedException: 'The request is denied because of missing access permissions.',
  UnrecognizedClientException: 'The security token included in the request is invalid.',
  InvalidSignatureException:
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
  ResourceNotFoundException: 'The specified resource Amazon Resource Name (ARN) was not found.',
  UnknownOperationException: 'The operation is not known to this service.',
  ThrottlingException: 'The number of requests exceeds the limit. Resubmit your request later.',
  InternalServerException: 'An internal server error occurred. Retry your request.',
  ModelTimeoutException: 'Model has timed out in processing the request. Try your request again.',
  ModelErrorException: 'The model returned an error.',
  ServiceUnavailableException: 'Bedrock is unable to process your request.',
};

/** The error type the runtime answers with for an HTTP status. */
export function errorTypeOfStatus(status: number): BedrockErrorType {
  const found = Object.entries(BEDROCK_ERRORS).find(
    ([type, code]) =>
      code === status && !['ConflictException', 'ServiceQuotaExceededException'].includes(type),
  );
  return (
    (found?.[0] as BedrockErrorType | undefined) ??
    (status >= 500 ? 'InternalServerException' : 'ValidationException')
  );
}

/** An error as AWS's REST-JSON services send it: the type in x-amzn-ErrorType, `{ message }` as the body. */
export function sendBedrockError(exchange: Exchange, type: BedrockErrorType, message?: string): void {
  exchange.response.writeHead(BEDROCK_ERRORS[type], {
    'content-type': 'application/json',
    'x-amzn-requestid': randomUUID(),
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  });
  exchange.response.end(JSON.stringify({ message: message || DEFAULT_MESSAGES[type] }));
}

export function sendBedrockJson(exchange: Exchange, status: number, body: unknown): void {
  exchange.response.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-requestid': randomUUID(),
  });
  exchange.response.end(JSON.stringify(body));
}

export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * Why a request is refused as unauthenticated, or undefined when its SigV4 signature holds: a missing
 * or malformed Authorization header (AccessDeniedException), another access key
 * (UnrecognizedClientException), a scope other than `<region>/bedrock` or a wrong signature
 * (InvalidSignatureException). The signature is checked from scratch (test/support/sigv4.ts).
 */
export function refuseUnsigned(
  exchange: Exchange,
  credentials: BedrockCredentials,
  region: string,
): { type: BedrockErrorType; message: string } | undefined {
  const authorization = String(exchange.headers.authorization ?? '');
  const shape =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/.exec(
      authorization,
    );
  if (!shape)
    return {
      type: 'AccessDeniedException',
      message:
        'Missing or malformed Authorization header: requests must be signed with AWS Signature Version 4.',
    };
  if (shape[1] !== credentials.accessKeyId) return { type: 'UnrecognizedClientException', message: '' };
  if (shape[4] !== 'bedrock' || shape[3] !== region)
    return {
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to a valid region and to the service 'bedrock', not '${shape[3]}/${shape[4]}'.`,
    };
  try {
    verifySigV4(
      {
        method: exchange.method,
        path: `${exchange.url.pathname}${exchange.url.search}`,
        headers: exchange.headers,
        rawBody: exchange.raw.toString('utf8'),
      },
      credentials.secretAccessKey,
    );
  } catch {
    return { type: 'InvalidSignatureException', message: '' };
  }
  return undefined;
}

/** A job id as Bedrock makes them: 12 lowercase letters and digits. */
export function newJobId(): string {
  return randomUUID().replaceAll('-', '').slice(0, 12);
}

export const JOB_IDENTIFIER =
  /^((arn:aws(-[^:]+)?:bedrock:[a-z0-9-]{1,20}:[0-9]{12}:model-invocation-job\/)?([a-z0-9]{12}))$/;

/** The job id in an ARN or a bare id, or undefined when `identifier` is neither. */
export function jobIdOf(identifier: string): string | undefined {
  return JOB_IDENTIFIER.exec(identifier)?.[4];
}

export function jobArn(region: string, accountId: string, id: string): string {
  return `arn:aws:bedrock:${region}:${accountId}:model-invocation-job/${id}`;
}

/** Milliseconds as the ISO 8601 date-time strings Bedrock's JSON timestamps are. */
export function isoTime(milliseconds: number | undefined): string | undefined {
  return milliseconds === undefined ? undefined : new Date(milliseconds).toISOString();
}
