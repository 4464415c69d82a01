import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onJsonRequest } from './on-json-request.js';

export interface EmbeddingRequestRecord {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; input?: string[]; encoding_format?: string; dimensions?: number };
}

/** What the server does with one request. */
export type EmbeddingBehaviour =
  | { kind: 'answer' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'wrong-dimension' }
  | { kind: 'wrong-count' };

export interface EmbeddingTestServer {
  url: string;
  requests: EmbeddingRequestRecord[];
  script: EmbeddingBehaviour[];
  peakInFlight: number;
  close(): Promise<void>;
}

/**
 * A deterministic stand-in embedding: hashed bag of lower-cased words and CJK characters, so
 * texts sharing words are close and retrieval through it is meaningful.
 */
export function hashedBagOfWords(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of text.toLowerCase().match(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (const unit of token) hash = Math.imul(hash ^ unit.codePointAt(0)!, 16777619) >>> 0;
    vector[hash % dimensions]! += 1;
  }
  vector[dimensions - 1]! += 0.01;
  return vector;
}

/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI's /v1/embeddings (float and base64
 * encodings), with a batch limit (HTTP 400 above it), scripted failures, and a record of every
 * request it received.
 */
export async function startEmbeddingTestServer(options: {
  dimensions: number;
  maxBatch?: number;
  /** Answer floats even when base64 is asked for, as some servers do. */
  ignoreEncodingFormat?: boolean;
  delayMs?: number;
}): Promise<EmbeddingTestServer> {
  const state: EmbeddingTestServer = {
    url: '',
    requests: [],
    script: [],
    peakInFlight: 0,
    close: async () => {},
  };
  let inFlight = 0;
  const server: Server = createServer((request, response) => {
    onJsonRequest(request, (body) => {
      const record: EmbeddingRequestRecord = { path: request.url ?? '', headers: request.headers, body };
      state.requests.push(record);
      inFlight++;
      state.peakInFlight = Math.max(state.peakInFlight, inFlight);
      response.on('close', () => {
        inFlight--;
      });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        setTimeout(() => {
          response.writeHead(status, { 'content-type': 'application/json', ...headers });
          response.end(JSON.stringify(body));
        }, options.delayMs ?? 0);
      const inputs = record.body.input ?? [];
      const behaviour = state.script.shift() ?? { kind: 'answer' };
      if (!record.path.endsWith('/embeddings')) return send(404, { error: { message: 'not found' } });
      if (behaviour.kind === 'status')
        return send(
          behaviour.status,
          { error: { message: 'scripted' } },
          behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {},
        );
      if (options.maxBatch !== undefined && inputs.length > options.maxBatch)
        return send(400, { error: { message: `batch of ${inputs.length} exceeds ${options.maxBatch}` } });
      const dimensions = behaviour.kind === 'wrong-dimension' ? options.dimensions + 1 : options.dimensions;
      const answered = behaviour.kind === 'wrong-count' ? inputs.slice(1) : inputs;
      const base64 = record.body.encoding_format === 'base64' && !options.ignoreEncodingFormat;
      const data = answered.map((text, index) => {
        const vector = hashedBagOfWords(text, dimensions);
        return {
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector,
        };
      });
      send(200, {
        object: 'list',
        model: record.body.model,
        data: data.reverse(),
        usage: {
          prompt_tokens: inputs.join(' ').split(/\s+/).length,
          total_tokens: inputs.join(' ').split(/\s+/).length,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
