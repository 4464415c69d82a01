import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/**
 * What the proxy does with one request: pass it on, call `onHold` before or after the target
 * answers (and hold it), after sending the answer's head and the first half of its body
 * (`hold-midway`: the client has read part of it), answer it itself (a route the target does
 * not stand in for), or pass it on once `until` settles (a gate: the client waits meanwhile).
 */
export type Interception =
  | 'forward'
  | 'hold-before'
  | 'hold-after'
  | 'hold-midway'
  | { status: number; body: unknown }
  | { until: Promise<unknown> };

export interface InterceptingProxy {
  url: string;
  close(): Promise<void>;
}

/** An answer of the target, whole. */
interface Answered {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of `target`: each request is forwarded as it came, unless
 * `decide` says to hold it — before it reaches the target, or after the target answered but before
 * the answer goes back — and then `onHold` is called (a test kills its client there, so that the
 * client dies at that exact step of a protocol). `keepHost`: the request goes on byte for byte,
 * its Host header kept (a SigV4 signature covers it), and the answer comes back with all its headers.
 */
export async function startInterceptingProxy(
  /** Where requests go (a function: the test may move it). */
  target: string | (() => string),
  decide: (method: string, path: string) => Interception,
  onHold: () => void,
  /** The path forwarded for the path received (default: the same). */
  rewrite: (path: string) => string = (path) => path,
  options: { keepHost?: boolean } = {},
): Promise<InterceptingProxy> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      let decision = decide(request.method ?? 'GET', request.url ?? '/');
      if (typeof decision === 'object' && 'until' in decision) {
        await decision.until;
        decision = 'forward';
      }
      if (decision === 'hold-before') return onHold();
      if (typeof decision === 'object') {
        response.writeHead(decision.status, { 'content-type': 'application/json' });
        return response.end(JSON.stringify(decision.body));
      }
      const url = `${typeof target === 'string' ? target : target()}${rewrite(request.url ?? '/')}`;
      const answered = options.keepHost
        ? await forwardAsIs(url, request, body)
        : await forward(url, request, body);
      if (decision === 'hold-after') return onHold();
      response.writeHead(answered.status, answered.headers);
      if (decision === 'hold-midway')
        return response.write(answered.body.subarray(0, Math.floor(answered.body.length / 2)), () =>
          onHold(),
        );
      response.end(answered.body);
    })().catch(() => response.destroy());
  });
  return listenOnLoopback(server);
}

/** Through fetch: the headers but Host, Content-Length and Connection; back the content type. */
async function forward(url: string, request: IncomingMessage, body: Buffer): Promise<Answered> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(
      ([name, value]) =>
        typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name),
    ),
  ) as Record<string, string>;
  const answered = await fetch(url, {
    method: request.method ?? 'GET',
    headers,
    ...(body.length > 0 ? { body } : {}),
  });
  return {
    status: answered.status,
    headers: { 'content-type': answered.headers.get('content-type') ?? 'application/json' },
    body: Buffer.from(await answered.arrayBuffer()),
  };
}

/** Byte for byte: every header as it came (Host included), every header of the answer back. */
function forwardAsIs(url: string, request: IncomingMessage, body: Buffer): Promise<Answered> {
  const to = new URL(url);
  return new Promise((resolve, reject) => {
    const upstream = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method: request.method,
        path: `${to.pathname}${to.search}`,
        headers: request.headers,
      },
      (answer) => {
        readBody(answer).then((read) => {
          const headers = Object.fromEntries(
            Object.entries(answer.headers).filter(
              ([name, value]) =>
                typeof value === 'string' &&
                !['content-length', 'connection', 'transfer-encoding'].includes(name),
            ),
          ) as Record<string, string>;
          resolve({ status: answer.statusCode ?? 502, headers, body: read });
        }, reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
