import { createHash } from 'node:crypto';
import { endpointIdentity, routeUrl } from './endpoint-identity.js';

export interface OpenAICompatibleChatModelOptions {
  /** Base URL up to and including the API version, e.g. http://127.0.0.1:8000/v1. */
  baseURL: string;
  modelId: string;
  /** The key itself (read from the environment by the caller); never logged. */
  apiKey?: string;
  /** Name of the variable the key came from, for error hints. */
  apiKeyEnv?: string;
  /** How the key is sent: as `Authorization: Bearer <key>` (default) or in this header (Azure: `api-key`). */
  apiKeyHeader?: string;
  /** A bearer token asked for before each request (Microsoft Entra ID), instead of a key. */
  bearerToken?: () => Promise<string>;
  /** Headers sent with every request (a gateway's or proxy's); part of the endpoint's identity. */
  headers?: Record<string, string>;
  /** Headers whose values are secrets (read from the environment): sent, never shown or hashed. */
  secretHeaders?: Record<string, string>;
  /** Query parameters added to every request's URL (`api-version`, a proxy's routing). */
  query?: Record<string, string>;
  /**
   * Send vLLM's request extensions when asked for (`continue_final_message` for an answer
   * prefill, `truncate_prompt_tokens`); OpenAI's own API refuses unknown fields. Default true.
   */
  serverExtensions?: boolean;
  /** How to fix a 404, naming the setting (the model, a deployment). */
  notFoundHint?: string;
  /** false where the URL names the model (an Azure deployment): no `model` field in the body. */
  modelInBody?: boolean;
}

/** The base URL with `query` added (values replace those already in the URL). */
function withQuery(baseURL: string, query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return baseURL;
  try {
    const url = new URL(baseURL);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  } catch {
    return baseURL; // the request reports the bad URL
  }
}

/**
 * The endpoint's identity: its URL without credentials and, when it sends fixed headers, a
 * digest of them (a gateway may route by header: another header is another server).
 */
function identityOf(baseURL: string, headers: Record<string, string> | undefined): string {
  const url = endpointIdentity(baseURL);
  const entries = Object.entries(headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value])
    .sort(([left], [right]) => (left! < right! ? -1 : 1));
  if (entries.length === 0) return url;
  return `${url}#headers=${createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 12)}`;
}

/** What the chat, completions and embeddings adapters of an OpenAI-compatible server share: address and auth. */
export abstract class OpenAICompatibleEndpoint {
  abstract readonly provider: string;
  readonly modelId: string;
  /** The base URL without credentials (`endpointIdentity`), with a digest of any fixed headers. */
  readonly endpoint: string;
  private readonly baseURL: string;
  private readonly apiKey: string | undefined;
  protected readonly apiKeyEnv: string | undefined;
  private readonly apiKeyHeader: string;
  private readonly bearerToken: (() => Promise<string>) | undefined;
  private readonly extraHeaders: Record<string, string>;
  private readonly secretHeaders: Record<string, string>;
  protected readonly serverExtensions: boolean;
  protected readonly notFoundHint: string | undefined;
  /** The body's `model` field: `{ model }`, or nothing where the URL names the model. */
  protected readonly modelField: { model?: string };

  constructor(options: OpenAICompatibleChatModelOptions) {
    this.serverExtensions = options.serverExtensions ?? true;
    this.baseURL = withQuery(options.baseURL, options.query);
    this.endpoint = identityOf(this.baseURL, options.headers);
    this.modelId = options.modelId;
    this.apiKey = options.apiKey;
    this.apiKeyEnv = options.apiKeyEnv;
    this.apiKeyHeader = options.apiKeyHeader?.toLowerCase() ?? 'authorization';
    this.bearerToken = options.bearerToken;
    this.extraHeaders = options.headers ?? {};
    this.secretHeaders = options.secretHeaders ?? {};
    this.notFoundHint = options.notFoundHint;
    this.modelField = options.modelInBody === false ? {} : { model: options.modelId };
  }

  /** Where a route of this API is sent: the configured base URL, credentials and query included. */
  protected url(route: string): string {
    return routeUrl(this.baseURL, route);
  }

  /** Every header a request carries: fixed ones, secret ones, then the key or token. */
  protected async headers(): Promise<Record<string, string>> {
    const auth: Record<string, string> = {};
    if (this.bearerToken) auth.authorization = `Bearer ${await this.bearerToken()}`;
    else if (this.apiKey)
      auth[this.apiKeyHeader] = this.apiKeyHeader === 'authorization' ? `Bearer ${this.apiKey}` : this.apiKey;
    return { ...this.extraHeaders, ...this.secretHeaders, ...auth };
  }

  /** What postJson needs besides the URL and body: the hints and the secrets to keep out of errors. */
  protected async requestOptions(): Promise<{
    headers: Record<string, string>;
    authHint: string;
    secrets: string[];
    notFoundHint?: string;
  }> {
    return {
      headers: await this.headers(),
      authHint: this.authHint(),
      secrets: Object.values(this.secretHeaders),
      ...(this.notFoundHint ? { notFoundHint: this.notFoundHint } : {}),
    };
  }

  protected authHint(): string {
    if (this.bearerToken)
      return 'Microsoft Entra ID refused the token: check the signed-in identity (az login, a managed identity or AZURE_* variables) and its role on the resource ("Cognitive Services OpenAI User").';
    return this.apiKeyEnv
      ? `Set ${this.apiKeyEnv} to a valid key for ${this.endpoint}.`
      : 'This endpoint needs a key: name its environment variable with apiKeyEnv in medbench.config.json.';
  }
}
