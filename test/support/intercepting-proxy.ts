import { createServer, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback-server.js';

/**
 * What the proxy does with one request: pass it on, call `onHold` before or after the target
 * answers (and hold it), or answer it itself (a route the target does not stand in for).
 */
export type Interception = 'forward' | 'hold-before' | 'hold-after' | { status: number; body: unknown };

export interface InterceptingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of `target`: each request is forwarded as it came, unless
 * `decide` says to hold it — before it reaches the target, or after the target answered but before
 * the answer goes back — and then `onHold` is called (a test kills its client there, so that the
 * client dies at that exact step of a protocol).
 */
export async function startInterceptingProxy(
  /** Where requests go (a function: the test may move it). */
  target: string | (() => string),
  decide: (method: string, path: string) => Interception,
  onHold: () => void,
  /** The path forwarded for the path received (default: the same). */
  rewrite: (path: string) => string = (path) => path,
): Promise<InterceptingProxy> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const decision = decide(request.method ?? 'GET', request.url ?? '/');
      if (decision === 'hold-before') return onHold();
      if (typeof decision === 'object') {
        response.writeHead(decision.status, { 'content-type': 'application/json' });
        return response.end(JSON.stringify(decision.body));
      }
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          ([name, value]) =>
            typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name),
        ),
      ) as Record<string, string>;
      const answered = await fetch(
        `${typeof target === 'string' ? target : target()}${rewrite(request.url ?? '/')}`,
        {
          method: request.method ?? 'GET',
          headers,
          ...(body.length > 0 ? { body } : {}),
        },
      );
      const text = Buffer.from(await answered.arrayBuffer());
      if (decision === 'hold-after') return onHold();
      response.writeHead(answered.status, {
        'content-type': answered.headers.get('content-type') ?? 'application/json',
      });
      response.end(text);
    })().catch(() => response.destroy());
  });
  return listenOnLoopback(server);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
