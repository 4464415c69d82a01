import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onJsonRequest } from '../../on-json-request.js';

/** What the stand-in server received: the route, the headers and the JSON body. */
export interface AbacusRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface AbacusServer {
  url: string;
  requests: AbacusRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking Abacus's protocol (abacus-chat-model.ts): it adds the
 * numbers of each question, knows the models in `models` (their context), and refuses any key
 * but `key` with a 401, as the service would.
 */
export async function startAbacusServer(options: {
  key: string;
  models: Record<string, number>;
}): Promise<AbacusServer> {
  const requests: AbacusRequest[] = [];
  const server = createServer((request, response) => {
    onJsonRequest(request, (body) => {
      const path = request.url ?? '';
      requests.push({ method: request.method ?? '', path, headers: request.headers, body });
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.headers['x-abacus-key'] !== options.key) return reply(401, { error: 'unknown key' });
      const model = /^\/v1\/models\/([^/]+)$/.exec(path);
      if (model) {
        const context = options.models[decodeURIComponent(model[1]!)];
        return context ? reply(200, { id: model[1], context }) : reply(404, { error: 'no such model' });
      }
      if (path !== '/v1/answer' || request.method !== 'POST') return reply(404, { error: 'no such route' });
      const numbers = (String(body.question).match(/\d+/g) ?? []).map(Number);
      const question = String(body.question);
      reply(200, {
        answer: `${numbers.slice(-2).reduce((sum, value) => sum + value, 0)}`,
        used: { in: question.split(/\s+/).length, out: 1 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
