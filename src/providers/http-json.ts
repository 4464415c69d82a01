import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import { endpointIdentity } from './endpoint-identity.js';

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Header names whose values are credentials, wherever they are echoed. */
const CREDENTIAL_FIELD =
  /((?:proxy-)?authorization|x-api-key|api[-_]?key|x-goog-api-key|access[-_]?token)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;&}<]+/gi;

/**
 * `text` with every credential taken out: the values this request sent (the whole header value
 * and the bare key after "Bearer"), anything that looks like a credential header echoed by a
 * server or proxy, and Bearer tokens. Error texts pass through here before any terminal, store,
 * report or page sees them.
 */
export function redactCredentials(text: string, sent: Readonly<Record<string, string>> = {}): string {
  let redacted = text;
  const secrets = Object.entries(sent)
    .filter(([name]) => /authorization|api[-_]?key|token/i.test(name))
    .flatMap(([, value]) => [value, value.replace(/^(bearer|basic|token)\s+/i, '')])
    .filter((secret) => secret.length >= 4)
    .sort((left, right) => right.length - left.length);
  for (const secret of secrets) redacted = redacted.split(secret).join('[redacted]');
  return redacted
    .replace(CREDENTIAL_FIELD, '$1$2[redacted]')
    .replace(/\b(bearer)\s+(?!\[redacted\])[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]');
}

function errorDetail(body: string, sent: Readonly<Record<string, string>>): string {
  // Redacted before it is shortened: a key cut in half would no longer match.
  const text = redactCredentials(body, sent).trim().slice(0, 300);
  return text ? `: ${text}` : '';
}

/** Keep-alive agents shared by every provider: one connection pool per protocol. */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY }),
};

interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** A TCP connection not made within this is an unreachable endpoint (a filtered port hangs otherwise). */
const CONNECT_TIMEOUT_MS = 3000;

/** How a request failed before a whole response arrived. */
class TransportError extends Error {
  constructor(
    /** `connect`: no connection was made; `exchange`: the connection broke before a whole answer. */
    readonly stage: 'connect' | 'exchange',
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    super(code ?? stage, options);
  }
}

/** Where a request to `url` goes, as http.request's options: converted once per URL, not per request. */
const targets = new WeakMap<URL, ReturnType<typeof urlToHttpOptions>>();
function requestTarget(url: URL): ReturnType<typeof urlToHttpOptions> {
  let target = targets.get(url);
  if (!target) {
    target = urlToHttpOptions(url);
    targets.set(url, target);
  }
  return target;
}

/** One POST (or, without a payload, GET) through node:http(s) — much lighter per request than fetch's web streams. */
function post(
  url: URL,
  headers: Record<string, string>,
  payload: string | undefined,
  signal?: AbortSignal,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let connected = false;
    const fail = (error: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      const code = (error as { code?: string }).code;
      reject(new TransportError(connected ? 'exchange' : 'connect', code, { cause: error }));
    };
    if (signal?.aborted) return fail(signal.reason);
    const request = send(
      {
        ...requestTarget(url),
        method: payload === undefined ? 'GET' : 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        headers:
          payload === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          // A connection closed before the announced length arrived ends as 'aborted'.
          if (!response.complete) return fail(Object.assign(new Error('cut off'), { code: 'ECUTOFF' }));
          signal?.removeEventListener('abort', onAbort);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', fail);
      },
    );
    request.on('socket', (socket) => {
      if (!socket.connecting) {
        connected = true; // a kept-alive connection
        return;
      }
      const timer = setTimeout(
        () => request.destroy(Object.assign(new Error('connect timed out'), { code: 'ECONNECTTIMEOUT' })),
        CONNECT_TIMEOUT_MS,
      );
      socket.once('connect', () => {
        connected = true;
        clearTimeout(timer);
      });
      socket.once('close', () => clearTimeout(timer));
    });
    // A listener of its own rather than http.request's `signal` option, which costs several
    // times more per request (measured: bench/runner-overhead.js).
    function onAbort() {
      request.destroy(Object.assign(new Error('The operation was aborted'), { code: 'ABORT_ERR' }));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.end(payload);
  });
}

/** An http(s) URL, or a CONFIG_INVALID error naming it without credentials. */
function httpUrl(text: string, shown: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url;
  } catch (error) {
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `Not an http(s) URL: ${shown}`,
      hint: 'Base URLs look like http://127.0.0.1:8000/v1.',
      cause: error,
    });
  }
}

/** URLs already parsed: a run posts to the same one thousands of times. */
const parsedUrls = new Map<string, { shown: string; url: URL }>();

/** The URL and how messages name it (without credentials: user info, key-like query values). */
function parsedUrl(text: string): { shown: string; url: URL } {
  let parsed = parsedUrls.get(text);
  if (!parsed) {
    const shown = endpointIdentity(text);
    parsed = { shown, url: httpUrl(text, shown) };
    if (parsedUrls.size >= 1000) parsedUrls.clear();
    parsedUrls.set(text, parsed);
  }
  return parsed;
}

/** A failed exchange as the runner sees it: a time-out, a stop, a broken answer or no server. */
/** A request its signal ended: a time-out (retryable) or a stop; undefined when not aborted. */
export function abortFailure(
  error: unknown,
  shown: string,
  signal: AbortSignal | undefined,
): MedbenchError | undefined {
  if (!signal?.aborted) return undefined;
  const reason = signal.reason as unknown;
  const timedOut = reason instanceof DOMException && reason.name === 'TimeoutError';
  return new MedbenchError({
    code: timedOut ? 'ENDPOINT_TIMEOUT' : 'ABORTED',
    message: timedOut ? `Request to ${shown} timed out.` : `Request to ${shown} was cancelled.`,
    retryable: timedOut,
    cause: error,
  });
}

function transportFailure(error: unknown, shown: string, signal: AbortSignal | undefined): MedbenchError {
  const aborted = abortFailure(error, shown, signal);
  if (aborted) return aborted;
  const transport = error instanceof TransportError ? error : undefined;
  const code = transport?.code ?? (error as { code?: string }).code;
  if (transport?.stage === 'exchange') {
    // The server was reached; the answer broke off (reset, closed mid-body): try again.
    return new MedbenchError({
      code: 'ENDPOINT_DISCONNECTED',
      message: `The connection to ${shown} closed before a whole answer arrived${code ? ` (${code})` : ''}.`,
      retryable: true,
      cause: error,
    });
  }
  return new MedbenchError({
    code: 'ENDPOINT_UNREACHABLE',
    message: `Cannot reach ${shown}${code ? ` (${code})` : ''}.`,
    hint: 'Check that the server is running and the base URL (including /v1 where the server needs it) is right.',
    retryable: true,
    cause: error,
  });
}

/** A non-2xx answer: refused credentials, or an HTTP error the runner may retry. */
function statusFailure(
  response: RawResponse,
  shown: string,
  sent: Record<string, string>,
  hints: { authHint: string; notFoundHint?: string | undefined },
): MedbenchError {
  const { authHint } = hints;
  const { status, text } = response;
  if (status === 401 || status === 403) {
    return new MedbenchError({
      code: 'ENDPOINT_AUTH',
      message: `${shown} refused the credentials (HTTP ${status})${errorDetail(text, sent)}`,
      hint: authHint,
      status,
    });
  }
  const retryAfterHeader = response.headers['retry-after'];
  const retryAfterMs = parseRetryAfter(typeof retryAfterHeader === 'string' ? retryAfterHeader : null);
  return new MedbenchError({
    code: 'ENDPOINT_HTTP',
    message: `${shown} answered HTTP ${status}${errorDetail(text, sent)}`,
    ...(status === 404 ? { hint: hints.notFoundHint ?? 'Check the base URL and the model name.' } : {}),
    retryable: isRetryableStatus(status),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    status,
  });
}

/** What every request to an endpoint names besides its body: where, with which headers, how to fix a refusal. */
interface ExchangeOptions {
  url: string;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** How to fix an authentication failure, e.g. which variable holds the key. */
  authHint: string;
  /** How to fix a 404: which setting names the model or deployment. */
  notFoundHint?: string;
  /** Values sent that are secret although their header names do not say so (taken out of errors). */
  secrets?: readonly string[];
}

/** One request, a 2xx answer's text, or a `MedbenchError`; `payload` undefined: a GET. */
async function exchange(
  options: ExchangeOptions & { payload: { contentType: string; text: string } | undefined; accept: string },
): Promise<{ text: string; shown: string; sent: () => Record<string, string> }> {
  const { shown, url } = parsedUrl(options.url);
  let response: RawResponse;
  try {
    response = await post(
      url,
      {
        ...(options.payload ? { 'content-type': options.payload.contentType } : {}),
        accept: options.accept,
        ...options.headers,
      },
      options.payload?.text,
      options.signal,
    );
  } catch (error) {
    throw transportFailure(error, shown, options.signal);
  }
  // What this request sent that is secret: echoed back in an error body, it is taken out.
  const sent = () => ({
    ...options.headers,
    ...(url.password ? { 'authorization (URL)': decodeURIComponent(url.password) } : {}),
    ...Object.fromEntries(
      (options.secrets ?? []).map((secret, index) => [`api-key (secret ${index})`, secret]),
    ),
  });
  if (response.status < 200 || response.status >= 300) throw statusFailure(response, shown, sent(), options);
  return { text: response.text, shown, sent };
}

/**
 * POSTs JSON and validates the JSON answer against `schema`. Every failure becomes a
 * `MedbenchError` whose `retryable` flag the runner's retry loop reads.
 */
export async function postJson<Schema extends z.ZodType>(
  options: ExchangeOptions & {
    /** undefined: a GET. */
    body: unknown;
    schema: Schema;
    /** A body that is not JSON (a multipart upload), sent as it is instead of `body`. */
    rawBody?: { contentType: string; text: string };
  },
): Promise<z.infer<Schema>> {
  const payload =
    options.rawBody ??
    (options.body === undefined
      ? undefined
      : { contentType: 'application/json', text: JSON.stringify(options.body) });
  const { text, shown, sent } = await exchange({ ...options, payload, accept: 'application/json' });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: `${shown} returned a body that is not JSON${errorDetail(text, sent())}`,
      retryable: true,
      cause: error,
    });
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'ENDPOINT_BAD_RESPONSE',
      message: `${shown} returned an unexpected response: ${issue.path.join('.')} ${issue.message}`,
      retryable: true,
    });
  }
  return parsed.data;
}

/** GETs a text body as it is (a batch's JSONL results file). */
export async function getText(options: ExchangeOptions): Promise<string> {
  return (await exchange({ ...options, payload: undefined, accept: '*/*' })).text;
}

/** `{ [name]: value }` when the value is set, else nothing: a setting left out is never sent. */
export function field(name: string, value: unknown): Record<string, unknown> {
  return value === undefined ? {} : { [name]: value };
}
