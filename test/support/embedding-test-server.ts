import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onJsonRequest } from './on-json-request.js';

export interface EmbeddingRequestRecord {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; input?: string[]; encoding_format?: string; dimensions?: number } & Record<
    string,
    unknown
  >;
}

/** Which protocol a path speaks: OpenAI's, Ollama's, Bedrock's InvokeModel, Gemini's or Vertex AI's. */
type Wire = 'openai' | 'ollama' | 'bedrock-titan' | 'bedrock-cohere' | 'gemini' | 'vertex' | undefined;

function wireOf(path: string): Wire {
  const pathname = path.split('?')[0]!;
  if (pathname.endsWith('/embeddings')) return 'openai';
  if (pathname === '/api/embed') return 'ollama';
  const invoked = /^\/model\/([^/]+)\/invoke$/.exec(pathname);
  if (invoked)
    return decodeURIComponent(invoked[1]!).includes('cohere.') ? 'bedrock-cohere' : 'bedrock-titan';
  if (pathname.endsWith(':batchEmbedContents')) return 'gemini';
  if (pathname.endsWith(':predict')) return 'vertex';
  return undefined;
}

/** The texts a request asks to embed, in order, whatever its protocol. */
function inputsOf(wire: Wire, body: Record<string, unknown>): string[] {
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : ((content as { parts?: Array<{ text?: string }> }).parts ?? [])
          .map((part) => part.text ?? '')
          .join('');
  switch (wire) {
    case 'openai':
    case 'ollama':
      return (body.input as string[] | undefined) ?? [];
    case 'bedrock-titan':
      return [String(body.inputText)];
    case 'bedrock-cohere':
      return (body.texts as string[] | undefined) ?? [];
    case 'gemini':
      return ((body.requests as Array<{ content: unknown }> | undefined) ?? []).map((entry) =>
        text(entry.content),
      );
    case 'vertex':
      return ((body.instances as Array<{ content: unknown }> | undefined) ?? []).map((entry) =>
        text(entry.content),
      );
    default:
      return [];
  }
}

/** The answer in the protocol's own shape. */
function answerOf(wire: Wire, vectors: number[][], inputs: string[], body: Record<string, unknown>): unknown {
  const tokens = inputs.join(' ').split(/\s+/).length;
  switch (wire) {
    case 'ollama':
      return { model: body.model, embeddings: vectors, prompt_eval_count: tokens };
    case 'bedrock-titan':
      return { embedding: vectors[0], inputTextTokenCount: tokens };
    case 'bedrock-cohere':
      return { id: 'emb-test', embeddings: vectors, texts: inputs, response_type: 'embeddings_floats' };
    case 'gemini':
      return { embeddings: vectors.map((values) => ({ values })) };
    case 'vertex':
      return {
        predictions: vectors.map((values) => ({
          embeddings: { values, statistics: { token_count: 1, truncated: false } },
        })),
      };
    default:
      return undefined;
  }
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
      const wire = wireOf(record.path);
      const inputs = inputsOf(wire, record.body);
      const behaviour = state.script.shift() ?? { kind: 'answer' };
      if (!wire) return send(404, { error: { message: 'not found' } });
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
      if (wire !== 'openai') {
        const dimensionsAsked = Number(record.body.dimensions ?? 0) || dimensions;
        return send(
          200,
          answerOf(
            wire,
            answered.map((text) => hashedBagOfWords(text, dimensionsAsked)),
            inputs,
            record.body,
          ),
        );
      }
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
