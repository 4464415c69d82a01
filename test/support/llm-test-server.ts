import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onJsonRequest } from './on-json-request.js';
import type {
  CacheUsage,
  ProviderName,
  ProviderWire,
  RecordedRequest,
  Route,
  ServedModel,
  WireResponse,
  WireState,
} from './providers/wire.js';
import { PROVIDER_WIRES } from './providers/wires.js';

export type { ProviderName, RecordedRequest } from './providers/wire.js';
export { PROVIDER_NAMES } from './providers/wires.js';

/** Wall-clock milliseconds with sub-millisecond precision, comparable across the test process. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}

/** What the server does with one generation request. */
export type Behaviour =
  /**
   * An answer; `reasoning` is a reasoning model's thinking, returned apart in the provider's own
   * shape, with `reasoningTokens` counted where the provider counts them. `cachedTokens` and
   * `cacheWriteTokens` of the prompt's tokens are reported as read from and written to the
   * provider's prompt cache, in its documented usage fields.
   */
  | ({
      kind: 'answer';
      text: string;
      delayMs?: number;
      reasoning?: string;
      reasoningTokens?: number;
      /** The model the answer names (OpenAI's dated snapshot of an alias); default: the one asked for. */
      model?: string;
    } & CacheUsage)
  /** An error status: the provider's documented error body for it, unless `body` is given. */
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  | { kind: 'malformed' }
  /** Headers and half the body, then the connection closes. */
  | { kind: 'cut' }
  /** The connection is reset without an answer. */
  | { kind: 'reset' }
  | { kind: 'hang' };

export interface LlmTestServer extends WireState {
  /** The provider this server stands in for. */
  provider: ProviderName;
  url: string;
  /** Generations (and Ollama's /api/show). */
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
   * The models the provider's GET routes list and describe (OpenAI's and vLLM's /v1/models,
   * Anthropic's /v1/models/{id}, Gemini's models.get); undefined: the server has no such routes
   * (405). Bedrock refuses any other model id (`bedrockUnknownModel`). GETs are recorded in `probes`.
   */
  servedModels: ServedModel[] | undefined;
  /** A status every GET gets instead, in the provider's error format (a refused key: 401). */
  probeStatus: number | undefined;
  probes: RecordedRequest[];
  /** Count-tokens requests, answered a token per 4 characters of the prompt. */
  counts: RecordedRequest[];
  /** Requests to paths the provider does not have: answered 404 in its error format. */
  unrouted: RecordedRequest[];
  close(): Promise<void>;
}

export interface LlmTestServerOptions {
  /** The provider the server stands in for; it answers that provider's documented routes only. */
  provider?: ProviderName;
  /** How generations are answered once `script` is used up. */
  fallback?: (request: RecordedRequest) => Behaviour;
  host?: string;
  /** Bedrock: the secret key every request's SigV4 signature is checked with. */
  awsSecretAccessKey?: string;
}

function send(response: ServerResponse, answer: WireResponse, extraHeaders: Record<string, string> = {}) {
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    ...answer.headers,
    ...extraHeaders,
  });
  response.end(answer.body);
}

/** A GET route: the models the test serves, in the provider's shape. */
function answerModelRoute(state: LlmTestServer, wire: ProviderWire, route: Route): WireResponse {
  if (state.probeStatus !== undefined) return wire.error(state.probeStatus);
  if (!state.servedModels || !wire.models) return wire.error(405);
  return wire.models(route, state.servedModels);
}

/** Counts the request in flight on its path until its connection closes. */
function trackInFlight(
  state: LlmTestServer,
  inFlight: Map<string, number>,
  recorded: RecordedRequest,
  response: ServerResponse,
) {
  const current = (inFlight.get(recorded.path) ?? 0) + 1;
  inFlight.set(recorded.path, current);
  state.peakInFlight.set(recorded.path, Math.max(current, state.peakInFlight.get(recorded.path) ?? 0));
  response.on('close', () => inFlight.set(recorded.path, (inFlight.get(recorded.path) ?? 1) - 1));
}

interface Exchange {
  state: LlmTestServer;
  wire: ProviderWire;
  route: Route;
  recorded: RecordedRequest;
  request: IncomingMessage;
  response: ServerResponse;
  pendingTimers: Set<NodeJS.Timeout>;
}

/**
 * The provider's answer to a generation `body` (its input tokens a token per 4 characters of the
 * prompt): the text of an `answer` behaviour, else "cut" (what a broken answer holds).
 */
export function answerBody(
  wire: ProviderWire,
  route: Route,
  body: Record<string, unknown>,
  behaviour: Behaviour,
): unknown {
  const inputTokens = Math.ceil(wire.prompt(route, body).length / 4);
  const text = behaviour.kind === 'answer' ? behaviour.text : 'cut';
  const { reasoning, reasoningTokens, cachedTokens, cacheWriteTokens } =
    behaviour.kind === 'answer' ? behaviour : {};
  return wire.answer(route, {
    model: (behaviour.kind === 'answer' ? behaviour.model : undefined) ?? body.model,
    text,
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(cachedTokens !== undefined ? { cachedTokens } : {}),
    ...(cacheWriteTokens !== undefined ? { cacheWriteTokens } : {}),
    inputTokens,
  });
}

/** A generation: the next scripted behaviour (or the fallback's), in the provider's format. */
function behave({ state, wire, route, recorded, request, response, pendingTimers }: Exchange): void {
  const behaviour = state.script.shift() ?? state.fallback(recorded);
  if (behaviour.kind === 'hang') return;
  if (behaviour.kind === 'reset') {
    request.socket.destroy();
    return;
  }
  if (behaviour.kind === 'status') {
    const error = wire.error(behaviour.status);
    send(
      response,
      { ...error, ...(behaviour.body !== undefined ? { body: behaviour.body } : {}) },
      {
        ...(behaviour.retryAfter ? { 'retry-after': behaviour.retryAfter } : {}),
      },
    );
    return;
  }
  const whole = JSON.stringify(answerBody(wire, route, recorded.body, behaviour));
  if (behaviour.kind === 'malformed') {
    // The provider's answer, broken off: not JSON.
    send(response, { status: 200, body: whole.slice(0, Math.floor(whole.length / 2)) });
    return;
  }
  if (behaviour.kind === 'cut') {
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(whole)),
    });
    response.write(whole.slice(0, Math.floor(whole.length / 2)), () => request.socket.destroy());
    return;
  }
  const timer = setTimeout(() => {
    pendingTimers.delete(timer);
    send(response, { status: 200, body: whole });
  }, behaviour.delayMs ?? 0);
  pendingTimers.add(timer);
}

/** One request: recorded where its route says, answered as the provider would. */
function handle(exchange: Omit<Exchange, 'route'>, inFlight: Map<string, number>): void {
  const { state, wire, recorded, response } = exchange;
  const url = new URL(recorded.path, 'http://test');
  const route = wire.route(recorded.method, url.pathname, url.searchParams);
  if (!route) {
    state.unrouted.push(recorded);
    send(response, wire.unrouted?.(recorded.method, recorded.path) ?? wire.error(404));
    return;
  }
  if (route.kind === 'model' || route.kind === 'models') {
    state.probes.push(recorded);
    send(response, answerModelRoute(state, wire, route));
    return;
  }
  response.on('finish', () => {
    recorded.answeredAt = preciseNow();
    state.onAnswered?.(recorded);
  });
  (route.kind === 'count' ? state.counts : state.requests).push(recorded);
  if (route.kind !== 'count') trackInFlight(state, inFlight, recorded, response);
  const refusal = wire.refuse?.(route, recorded, state) ?? wire.own?.(route, recorded, state);
  if (refusal) send(response, refusal);
  else if (route.kind === 'count')
    send(response, {
      status: 200,
      body: JSON.stringify(wire.count!(route, Math.ceil(wire.prompt(route, recorded.body).length / 4))),
    });
  else behave({ ...exchange, route });
}

/**
 * A real HTTP server on 127.0.0.1 (or `host`) standing in for one paid API (`provider`, by default an
 * OpenAI-compatible server): it answers that provider's documented routes with its documented
 * responses and errors (test/support/providers/), any other path with its 404, and records every
 * request it receives.
 */
export async function startLlmTestServer(options: LlmTestServerOptions = {}): Promise<LlmTestServer> {
  const provider = options.provider ?? 'openai-compatible';
  const wire = PROVIDER_WIRES[provider];
  const state: LlmTestServer = {
    provider,
    url: '',
    requests: [],
    connections: 0,
    script: [],
    fallback: options.fallback ?? (() => ({ kind: 'answer', text: '{"answer": "ok"}' })),
    peakInFlight: new Map(),
    servedModels: undefined,
    probeStatus: undefined,
    probes: [],
    counts: [],
    unrouted: [],
    bedrockUnknownModel: 400,
    ollamaModels: { 'llama3.1:8b': { contextLength: 131072, capabilities: ['completion', 'tools'] } },
    awsSecretAccessKey: options.awsSecretAccessKey,
    close: async () => {},
  };
  const inFlight = new Map<string, number>();
  const pendingTimers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    onJsonRequest(request, (body, rawBody) => {
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        path: request.url ?? '',
        headers: request.headers,
        body,
        rawBody,
        receivedAt: preciseNow(),
        remotePort: request.socket.remotePort,
      };
      handle({ state, wire, recorded, request, response, pendingTimers }, inFlight);
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

/** One server per provider (each answering only its own routes), for a test that covers several. */
export type LlmTestServers<P extends ProviderName> = Record<P, LlmTestServer> & { close(): Promise<void> };

export async function startLlmTestServers<P extends ProviderName>(
  providers: readonly P[],
  options: Omit<LlmTestServerOptions, 'provider'> = {},
): Promise<LlmTestServers<P>> {
  const started = await Promise.all(
    providers.map((provider) => startLlmTestServer({ ...options, provider })),
  );
  const servers = Object.fromEntries(providers.map((provider, index) => [provider, started[index]!]));
  return {
    ...(servers as Record<P, LlmTestServer>),
    close: async () => {
      await Promise.all(started.map((server) => server.close()));
    },
  };
}
