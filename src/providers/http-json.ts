import type { z } from 'zod';
import { MedbenchError } from '../core/errors.js';

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function errorDetail(body: string): string {
  const text = body.trim().slice(0, 300);
  return text ? `: ${text}` : '';
}

/**
 * POSTs JSON and validates the JSON answer against `schema`. Every failure becomes a
 * `MedbenchError` whose `retryable` flag the runner's retry loop reads.
 */
export async function postJson<Schema extends z.ZodType>(options: {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  schema: Schema;
  signal?: AbortSignal;
  /** How to fix an authentication failure, e.g. which variable holds the key. */
  authHint: string;
}): Promise<z.infer<Schema>> {
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) {
      const reason = options.signal.reason as unknown;
      const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError';
      throw new MedbenchError({
        code: timedOut ? 'ENDPOINT_TIMEOUT' : 'ABORTED',
        message: timedOut
          ? `Request to ${options.url} timed out.`
          : `Request to ${options.url} was cancelled.`,
        retryable: timedOut,
        cause: error,
      });
    }
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new MedbenchError({
      code: 'ENDPOINT_UNREACHABLE',
      message: `Cannot reach ${options.url}${cause?.code ? ` (${cause.code})` : ''}.`,
      hint: 'Check that the server is running and the base URL (including /v1 where the server needs it) is right.',
      retryable: true,
      cause: error,
    });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const status = response.status;
    if (status === 401 || status === 403) {
      throw new MedbenchError({
        code: 'ENDPOINT_AUTH',
        message: `${options.url} refused the credentials (HTTP ${status})${errorDetail(text)}`,
        hint: options.authHint,
        status,
      });
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    throw new MedbenchError({
      code: 'ENDPOINT_HTTP',
      message: `${options.url} answered HTTP ${status}${errorDetail(text)}`,
      ...(status === 404 ? { hint: 'Check the base URL and the model name.' } : {}),
      retryable: isRetryableStatus(status),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      status,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: `${options.url} returned a body that is not JSON${errorDetail(text)}`,
      retryable: true,
      cause: error,
    });
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: `${options.url} returned an unexpected response: ${issue.path.join('.')} ${issue.message}`,
      retryable: true,
    });
  }
  return parsed.data;
}
