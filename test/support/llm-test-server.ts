import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerBody } from './llm-test-answers.js';
import { onJsonRequest } from './on-json-request.js';
import { answeredAsGeminiCountRefusal, answeredAsUnknownBedrockModel } from './provider-refusals.js';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The body as sent (what a signature covers). */
  rawBody: string;
  /** When the server received it, and when its answer was handed to the OS (ms, sub-ms precision). */
  receivedAt: number;
  answeredAt?: number;
  /** The client's TCP port: which process sent it, when several did. */
  remotePort: number | undefined;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable across the test process. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** What the server does with one request. */
export type Behaviour =
  /**
   * An answer; `reasoning` is a reasoning model's thinking, returned apart in the provider's own
   * shape, with `reasoningTokens` counted where the provider counts them.
   */
  | { kind: 'answer'; text: string; delayMs?: number; reasoning?: string; reasoningTokens?: number }
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  | { kind: 'malformed' }
  /** Headers and half the body, then the connection closes. */
  | { kind: 'cut' }
  /** The connection is reset without an answer. */
  | { kind: 'reset' }
  | { kind: 'hang' };

export interface LlmTestServer {
  url: string;
  requests: RecordedRequest[];
  /** Behaviours used in order for the next requests; then `fallback` answers. */
  script: Behaviour[];
  fallback: (request: RecordedRequest) => Behaviour;
  /** Highest number of requests the server held at once, per path. */
  peakInFlight: Map<string, number>;
  /** TCP connections accepted: none means not one byte reached this server. */
  connections: number;
  /** Called when an answer has been handed to the OS (its `answeredAt` set). */
  onAnswered?: (request: RecordedRequest) => void;
  /**
   * The models GET routes list and describe (OpenAI's and vLLM's /v1/models, Anthropic's and
   * Gemini's /models/{id}); undefined: the server has no such routes (405). GETs are recorded in
   * `probes`, not `requests`.
   */
  servedModels: Array<{ id: string; max_model_len?: number; inputTokenLimit?: number }> | undefined;
  /** A status every GET gets instead (a refused key: 401). */
  probeStatus: number | undefined;
  probes: RecordedRequest[];
  /** Count-tokens requests (Anthropic, vLLM's /tokenize, Bedrock, Gemini), answered a token per 4 characters. */
  counts: RecordedRequest[];
  /**
   * How Bedrock answers a model id not in `servedModels` (count-tokens and Converse alike): 400
   * ValidationException "The provided model identifier is invalid." (an id it does not know), or
   * 404 ResourceNotFoundException (a foundation model it cannot resolve in the region).
   */
  bedrockUnknownModel: 400 | 404;
  /** Ollama's pulled models (/api/show, /api/chat): any other name is answered 404, as Ollama does. */
  ollamaModels: Record<string, { contextLength: number; capabilities: string[] }>;
  close(): Promise<void>;
}

/** A content field as text: a string, or Bedrock's and Gemini's lists of { text } blocks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((block) => textOf((block as { text?: unknown }).text ?? '')).join('');
  return '';
}

function promptOf(body: Record<string, unknown>): string {
  if (typeof body.prompt === 'string') return body.prompt;
  if (Array.isArray(body.contents)) {
    // Gemini: systemInstruction and contents, each with parts of { text }.
    const system = (body.systemInstruction as { parts?: unknown } | undefined)?.parts;
    const turns = (body.contents as Array<{ parts: unknown }>).map((turn) => textOf(turn.parts));
    return [...(system ? [textOf(system)] : []), ...turns].join('\n');
  }
  const system = typeof body.system === 'string' || Array.isArray(body.system) ? [textOf(body.system)] : [];
  const messages = (body.messages ?? []) as Array<{ content: unknown }>;
  return [...system, ...messages.map((message) => textOf(message.content))].join('\n');
}

/** Bedrock's error names by status, sent as x-amzn-errortype as the service does. */
const BEDROCK_ERRORS: Record<number, string> = {
  400: 'ValidationException',
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/**
 * Ollama's own answers that need no behaviour: /api/show, and a 404 for a model not pulled
 * (its error shape: { "error": "…" }). True when the request was answered here.
 */
function answeredAsOllama(
  state: LlmTestServer,
  recorded: RecordedRequest,
  response: ServerResponse,
): boolean {
  if (recorded.path !== '/api/show' && recorded.path !== '/api/chat') return false;
  const name = String(recorded.body.model);
  const pulled = Object.hasOwn(state.ollamaModels, name) ? state.ollamaModels[name] : undefined;
  if (!pulled) {
    send(response, 404, JSON.stringify({ error: `model '${name}' not found` }));
    return true;
  }
  if (recorded.path === '/api/chat') return false;
  const architecture = name.split(/[.:]/)[0]!;
  send(
    response,
    200,
    JSON.stringify({
      details: { format: 'gguf', family: architecture },
      model_info: {
        'general.architecture': architecture,
        [`${architecture}.context_length`]: pulled.contextLength,
      },
      capabilities: pulled.capabilities,
    }),
  );
  return true;
}

/** GET /…/models (a list) or /…/models/{id} (one model), from `servedModels`. */
function answerModelRoute(state: LlmTestServer, path: string, response: ServerResponse): void {
  if (state.probeStatus !== undefined) {
    send(response, state.probeStatus, '{"error": {"message": "probe refused"}}');
    return;
  }
  if (!state.servedModels) {
    send(response, 405, '{"error": {"message": "method not allowed"}}');
    return;
  }
  const pathname = path.split('?')[0]!;
  if (pathname.endsWith('/models')) {
    const data = state.servedModels.map((model) => ({ object: 'model', owned_by: 'test', ...model }));
    send(response, 200, JSON.stringify({ object: 'list', data }));
    return;
  }
  const id = decodeURIComponent(pathname.split('/models/').at(-1) ?? '');
  const model = state.servedModels.find((entry) => entry.id === id);
  if (!model) {
    send(
      response,
      404,
      JSON.stringify({ error: { code: 404, message: `model ${id} not found`, status: 'NOT_FOUND' } }),
    );
    return;
  }
  send(response, 200, JSON.stringify({ ...model, type: 'model', name: `models/${model.id}` }));
}

/** The count routes: each provider's own shape, a token per 4 characters of the prompt. */
function answeredCount(state: LlmTestServer, recorded: RecordedRequest, response: ServerResponse): boolean {
  const pathname = recorded.path.split('?')[0]!;
  const kind = pathname.endsWith('/v1/messages/count_tokens')
    ? 'anthropic'
    : pathname === '/tokenize'
      ? 'vllm'
      : /^\/model\/[^/]+\/count-tokens$/.test(pathname)
        ? 'bedrock'
        : pathname.endsWith(':countTokens')
          ? 'gemini'
          : undefined;
  if (!kind) return false;
  state.counts.push(recorded);
  if (kind === 'bedrock' && answeredAsUnknownBedrockModel(state, pathname, response)) return true;
  if (kind === 'gemini' && answeredAsGeminiCountRefusal(pathname, recorded.body, response)) return true;
  const body = recorded.body as Record<string, unknown>;
  const inner =
    kind === 'bedrock'
      ? ((body.input as { converse?: Record<string, unknown> } | undefined)?.converse ?? {})
      : kind === 'gemini' && body.generateContentRequest
        ? (body.generateContentRequest as Record<string, unknown>)
        : body;
  const tokens = Math.ceil(promptOf(inner).length / 4);
  const answer =
    kind === 'anthropic'
      ? { input_tokens: tokens }
      : kind === 'vllm'
        ? { count: tokens, max_model_len: 131072, tokens: [] }
        : kind === 'bedrock'
          ? { inputTokens: tokens }
          : { totalTokens: tokens };
  send(response, 200, JSON.stringify(answer));
  return true;
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(body);
}

/**
 * A real HTTP server on 127.0.0.1 (or `host`) speaking OpenAI's /v1/chat/completions and /v1/completions
 * and Anthropic's /v1/messages, standing in for paid APIs. It records every request it receives.
 */
export async function startLlmTestServer(
  fallback: (request: RecordedRequest) => Behaviour = () => ({ kind: 'answer', text: '{"answer": "ok"}' }),
  options: { host?: string } = {},
): Promise<LlmTestServer> {
  const state: LlmTestServer = {
    url: '',
    requests: [],
    connections: 0,
    script: [],
    fallback,
    peakInFlight: new Map(),
    servedModels: undefined,
    probeStatus: undefined,
    probes: [],
    counts: [],
    bedrockUnknownModel: 400,
    ollamaModels: { 'llama3.1:8b': { contextLength: 131072, capabilities: ['completion', 'tools'] } },
    close: async () => {},
  };
  const inFlight = new Map<string, number>();
  const pendingTimers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    onJsonRequest(request, (requestBody, rawBody) => {
      const recorded: RecordedRequest = {
        path: request.url ?? '',
        headers: request.headers,
        body: requestBody,
        rawBody,
        receivedAt: preciseNow(),
        remotePort: request.socket.remotePort,
      };
      if (request.method === 'GET') {
        state.probes.push(recorded);
        answerModelRoute(state, recorded.path, response);
        return;
      }
      response.on('finish', () => {
        recorded.answeredAt = preciseNow();
        state.onAnswered?.(recorded);
      });
      // Count routes are recorded apart: `requests` are the generations.
      if (answeredCount(state, recorded, response)) return;
      state.requests.push(recorded);
      const current = (inFlight.get(recorded.path) ?? 0) + 1;
      inFlight.set(recorded.path, current);
      state.peakInFlight.set(recorded.path, Math.max(current, state.peakInFlight.get(recorded.path) ?? 0));
      response.on('close', () => inFlight.set(recorded.path, (inFlight.get(recorded.path) ?? 1) - 1));
      if (answeredAsOllama(state, recorded, response)) return;
      const bedrock = /^\/model\/[^/]+\/converse$/.test(recorded.path.split('?')[0]!);
      if (bedrock && answeredAsUnknownBedrockModel(state, recorded.path, response)) return;
      const behaviour = state.script.shift() ?? state.fallback(recorded);
      if (behaviour.kind === 'hang') return;
      if (behaviour.kind === 'status') {
        const errorBody = bedrock ? '{"message": "scripted"}' : '{"error": {"message": "scripted"}}';
        send(response, behaviour.status, behaviour.body ?? errorBody, {
          ...(bedrock ? { 'x-amzn-errortype': BEDROCK_ERRORS[behaviour.status] ?? 'ServiceException' } : {}),
          ...(behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {}),
        });
        return;
      }
      if (behaviour.kind === 'malformed') {
        send(response, 200, '{"choices": [ this is not json');
        return;
      }
      if (behaviour.kind === 'reset') {
        request.socket.destroy();
        return;
      }
      if (behaviour.kind === 'cut') {
        const whole = '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "cut"}}]}';
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(whole.length),
        });
        response.write(whole.slice(0, 30), () => request.socket.destroy());
        return;
      }
      const body = answerBody({
        path: recorded.path,
        model: recorded.body.model,
        text: behaviour.text,
        ...(behaviour.reasoning !== undefined ? { reasoning: behaviour.reasoning } : {}),
        ...(behaviour.reasoningTokens !== undefined ? { reasoningTokens: behaviour.reasoningTokens } : {}),
        inputTokens: Math.ceil(promptOf(recorded.body).length / 4),
      });
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        send(response, 200, JSON.stringify(body));
      }, behaviour.delayMs ?? 0);
      pendingTimers.add(timer);
    });
  });
  server.on('connection', () => {
    state.connections++;
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const shown = host.includes(':') ? `[${host}]` : host;
  state.url = `http://${shown}:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const timer of pendingTimers) clearTimeout(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
