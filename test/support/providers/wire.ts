import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
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

/** The providers the LLM test server can stand in for: each speaks only its own documented routes. */
export type ProviderName =
  | 'openai-compatible'
  | 'azure-openai'
  | 'anthropic'
  | 'bedrock'
  | 'gemini'
  | 'vertex-ai'
  | 'ollama';

/**
 * What a documented route does: `generate` answers a prompt (recorded in `requests`), `count`
 * counts its tokens (in `counts`), `models` and `model` list and describe models (GETs, in
 * `probes`), `show` is Ollama's /api/show (in `requests`).
 */
export interface Route {
  kind: 'generate' | 'count' | 'models' | 'model' | 'show';
  /** The model the path names (Bedrock, Gemini, Anthropic's and OpenAI's models/{id}). */
  model?: string;
  /** OpenAI's legacy /v1/completions (a prompt, not messages). */
  completion?: boolean;
}

/** Of a prompt's tokens, those the provider reports as read from and written to its prompt cache. */
export interface CacheUsage {
  cachedTokens?: number;
  cacheWriteTokens?: number;
}

/** A successful answer's contents, put into the provider's recorded response. */
export interface Answer extends CacheUsage {
  model: unknown;
  text: string;
  reasoning?: string;
  /** Counted where the provider counts them apart; else the reasoning's length / 4. */
  reasoningTokens?: number;
  /** Every prompt token, cached and cache-written ones included. */
  inputTokens: number;
}

/** The prompt's tokens neither read from nor written to the cache (what Anthropic and Bedrock call input). */
export function uncachedTokens(answer: Answer): number {
  return answer.inputTokens - (answer.cachedTokens ?? 0) - (answer.cacheWriteTokens ?? 0);
}

/** A response the server sends as it is. */
export interface WireResponse {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface ServedModel {
  id: string;
  max_model_len?: number;
  inputTokenLimit?: number;
}

/** What a provider's wire sees of the server: the models a test serves, Bedrock's refusal kind, Ollama's pulled models. */
export interface WireState {
  servedModels: ServedModel[] | undefined;
  bedrockUnknownModel: 400 | 404;
  ollamaModels: Record<string, { contextLength: number; capabilities: string[] }>;
  /** Bedrock: the secret every request's SigV4 signature is checked with; unset, none is checked. */
  awsSecretAccessKey: string | undefined;
}

/** One provider's wire format, written from its public API reference. */
export interface ProviderWire {
  /** The documented route of a request; undefined: the provider has no such route. */
  route(method: string, pathname: string, query: URLSearchParams): Route | undefined;
  /** The provider's documented error for a status (a scripted failure), its message replaced when given. */
  error(status: number, message?: string): WireResponse;
  /** The provider's answer to a path it does not have (else its 404 error). */
  unrouted?(method: string, path: string): WireResponse;
  /** The prompt's text, which the server counts a token per 4 characters. */
  prompt(route: Route, body: Record<string, unknown>): string;
  /** A successful generation. */
  answer(route: Route, answer: Answer): unknown;
  /** A count route's answer. */
  count?(route: Route, tokens: number): unknown;
  /** GET routes: the models a test serves (`state.servedModels`). */
  models?(route: Route, served: ServedModel[]): WireResponse;
  /** A documented refusal that comes before any scripted behaviour (a model the provider does not have). */
  refuse?(route: Route, request: RecordedRequest, state: WireState): WireResponse | undefined;
  /** Routes answered by the provider itself, not by a behaviour (Ollama's /api/show). */
  own?(route: Route, request: RecordedRequest, state: WireState): WireResponse | undefined;
}

const cache = new Map<string, unknown>();

/** A fixture response of `provider`'s, as its API reference documents it (a fresh copy). */
export function fixture<T extends object = Record<string, unknown>>(provider: string, name: string): T {
  const key = `${provider}/${name}`;
  if (!cache.has(key))
    cache.set(
      key,
      JSON.parse(readFileSync(new URL(`./fixtures/${key}.json`, import.meta.url), 'utf8')) as unknown,
    );
  return structuredClone(cache.get(key)) as T;
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): WireResponse {
  return { status, body: JSON.stringify(body), headers };
}

/** Output tokens: every generated token, the thinking's included (what most providers report). */
export function tokensOf(answer: Answer): { answer: number; reasoning: number; output: number } {
  const reasoning = answer.reasoningTokens ?? (answer.reasoning ? Math.ceil(answer.reasoning.length / 4) : 0);
  const answerTokens = Math.ceil(answer.text.length / 4);
  return { answer: answerTokens, reasoning, output: answerTokens + reasoning };
}

/** A content field as text: a string, or a list of { text } blocks (Anthropic, Bedrock, Gemini parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((block) => textOf((block as { text?: unknown }).text ?? '')).join('');
  return '';
}

/** Chat messages' text, a system prompt first (OpenAI, Anthropic, Bedrock, Ollama). */
export function messagesText(system: unknown, messages: unknown): string {
  const systemText = system === undefined ? [] : [textOf(system)];
  const turns = ((messages ?? []) as Array<{ content: unknown }>).map((message) => textOf(message.content));
  return [...systemText, ...turns].join('\n');
}

/** The error fixture for a status, else the one for `fallback` (a fresh copy the caller may change). */
export function errorFixture<T>(provider: string, status: number, fallback: number): T {
  const errors = fixture<Record<string, T>>(provider, 'errors');
  return errors[String(status)] ?? errors[String(fallback)]!;
}
