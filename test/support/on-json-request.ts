import type { IncomingMessage } from 'node:http';

/** Collects a request's body and hands it over parsed (an empty body reads as {}). */
export function onJsonRequest(
  request: IncomingMessage,
  handle: (body: Record<string, unknown>, raw: string) => void,
): void {
  let raw = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    raw += chunk;
  });
  request.on('end', () => handle(raw ? (JSON.parse(raw) as Record<string, unknown>) : {}, raw));
}
