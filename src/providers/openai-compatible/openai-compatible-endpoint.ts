import { z } from 'zod';
import type { EndpointFacts } from '../../core/chat-model.js';
import { isEndpointOutage, MedbenchError } from '../../core/errors.js';
import { endpointIdentityWithHeaders, routeUrl, withQuery } from '../endpoint-identity.js';
import { postJson } from '../http-json.js';

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
  /**
   * What GET /models tells before a run: `complete` (OpenAI: a model not listed does not exist),
   * `partial` (default: a server may answer any name, as llama.cpp's does: a notice, not an
   * error), `none` (no such route: nothing is asked).
   */
  modelList?: 'complete' | 'partial' | 'none';
}

/** Headers, hints and secrets of one endpoint's requests (read, never changed, by postJson). */
interface RequestOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly authHint: string;
  readonly secrets: readonly string[];
  readonly notFoundHint?: string;
}

const modelListSchema = z.object({
  data: z.array(z.object({ id: z.string(), max_model_len: z.number().int().positive().optional() })),
});

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
  private readonly modelList: 'complete' | 'partial' | 'none';
  /** The body's `model` field: `{ model }`, or nothing where the URL names the model. */
  protected readonly modelField: { model?: string };

  constructor(options: OpenAICompatibleChatModelOptions) {
    this.serverExtensions = options.serverExtensions ?? true;
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
    this.modelField = options.modelInBody === false ? {} : { model: options.modelId };
    this.modelList = options.modelList ?? 'partial';
  }

  /**
   * One GET /models before a run: refused credentials fail here; the model's window where the
   * server declares it (vLLM's max_model_len); a model the list lacks is an error or a notice.
   * An outage (unreachable, reset, timed out, 5xx) is thrown for the check to judge; a server
   * without the route, or any other refusal, leaves the run to find out.
   */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    if (this.modelList === 'none') return {};
    let listed: z.infer<typeof modelListSchema>;
    try {
      listed = await postJson({
        url: this.url('/models'),
        ...(await this.requestOptions()),
        body: undefined,
        schema: modelListSchema,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (MedbenchError.is(error) && (error.code === 'ENDPOINT_AUTH' || isEndpointOutage(error))) throw error;
      return {};
    }
    const entry = listed.data.find((model) => model.id === this.modelId);
    if (entry) return entry.max_model_len ? { maxContextTokens: entry.max_model_len } : {};
    const names = listed.data.map((model) => model.id);
    const shown = `${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}`;
    if (this.modelList === 'complete')
      throw new MedbenchError({
        code: 'MODEL_NOT_FOUND',
        message: `${this.endpoint} has no model "${this.modelId}".`,
        hint: `Fix the model name${names.length ? ` (this key may use: ${shown})` : ''}.`,
      });
    return names.length > 0
      ? {
          notice: `${this.endpoint} lists ${shown}; "${this.modelId}" is not among them (a server that ignores the model name, such as llama.cpp's, answers anyway).`,
        }
      : {};
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
