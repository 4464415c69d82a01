import { endpointIdentityWithHeaders, routeUrl, withQuery } from './endpoint-identity.js';

/** What every HTTP adapter's endpoint takes: its address, key, headers and query. */
export interface HttpEndpointOptions {
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
  /** How to fix a 404, naming the setting (the model, a deployment). */
  notFoundHint?: string;
}

/** Headers, hints and secrets of one endpoint's requests (read, never changed, by postJson). */
interface RequestOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly authHint: string;
  readonly secrets: readonly string[];
  readonly notFoundHint?: string;
}

/**
 * What every HTTP adapter shares, whatever its API (OpenAI's, Anthropic's, Ollama's): the base URL
 * and query, the key in its header or a bearer token, fixed and secret headers, and the endpoint's
 * identity. Each API's adapter adds its routes and bodies.
 */
export abstract class HttpEndpoint {
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
  protected readonly notFoundHint: string | undefined;

  constructor(options: HttpEndpointOptions) {
    this.baseURL = withQuery(options.baseURL, options.query);
    this.endpoint = endpointIdentityWithHeaders(this.baseURL, options.headers);
    this.modelId = options.modelId;
    this.apiKey = options.apiKey;
    this.apiKeyEnv = options.apiKeyEnv;
    this.apiKeyHeader = options.apiKeyHeader?.toLowerCase() ?? 'authorization';
    this.bearerToken = options.bearerToken;
    this.extraHeaders = options.headers ?? {};
    this.secretHeaders = options.secretHeaders ?? {};
    this.notFoundHint = options.notFoundHint;
  }

  /** Where a route of this API is sent: the configured base URL, credentials and query included. */
  protected url(route: string): string {
    return routeUrl(this.baseURL, route);
  }

  /** A route at the server's root (vLLM's /tokenize): the base URL without its trailing /v1. */
  protected rootUrl(route: string): string {
    try {
      const url = new URL(this.baseURL);
      url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
      return routeUrl(url.toString(), route);
    } catch {
      return routeUrl(this.baseURL, route);
    }
  }

  /** Every header a request carries: fixed ones, secret ones, then the key or token. */
  protected async headers(): Promise<Record<string, string>> {
    const auth: Record<string, string> = {};
    if (this.bearerToken) auth.authorization = `Bearer ${await this.bearerToken()}`;
    else if (this.apiKey)
      auth[this.apiKeyHeader] = this.apiKeyHeader === 'authorization' ? `Bearer ${this.apiKey}` : this.apiKey;
    return { ...this.extraHeaders, ...this.secretHeaders, ...auth };
  }

  /**
   * What postJson needs besides the URL and body: the headers, the hints and the secrets to keep
   * out of errors. Built once (every request shares it) unless a token must be asked for each time.
   */
  protected async requestOptions(): Promise<RequestOptions> {
    if (this.fixedOptions) return this.fixedOptions;
    const options: RequestOptions = {
      headers: await this.headers(),
      authHint: this.authHint(),
      secrets: Object.values(this.secretHeaders),
      ...(this.notFoundHint ? { notFoundHint: this.notFoundHint } : {}),
    };
    if (!this.bearerToken) this.fixedOptions = options;
    return options;
  }

  private fixedOptions: RequestOptions | undefined;

  protected authHint(): string {
    if (this.bearerToken)
      return 'Microsoft Entra ID refused the token: check the signed-in identity (az login, a managed identity or AZURE_* variables) and its role on the resource ("Cognitive Services OpenAI User").';
    return this.apiKeyEnv
      ? `Set ${this.apiKeyEnv} to a valid key for ${this.endpoint}.`
      : 'This endpoint needs a key: name its environment variable with apiKeyEnv in medbench.config.json.';
  }
}
