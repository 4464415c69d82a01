import { endpointIdentity, routeUrl } from './endpoint-identity.js';

export interface OpenAICompatibleChatModelOptions {
  /** Base URL up to and including the API version, e.g. http://127.0.0.1:8000/v1. */
  baseURL: string;
  modelId: string;
  /** The key itself (read from the environment by the caller); never logged. */
  apiKey?: string;
  /** Name of the variable the key came from, for error hints. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /**
   * Send vLLM's request extensions when asked for (`continue_final_message` for an answer
   * prefill, `truncate_prompt_tokens`); OpenAI's own API refuses unknown fields. Default true.
   */
  serverExtensions?: boolean;
}

/** What the chat, completions and embeddings adapters of an OpenAI-compatible server share: address and auth. */
export abstract class OpenAICompatibleEndpoint {
  abstract readonly provider: string;
  readonly modelId: string;
  /** The base URL without credentials (`endpointIdentity`). */
  readonly endpoint: string;
  private readonly baseURL: string;
  private readonly apiKey: string | undefined;
  private readonly apiKeyEnv: string | undefined;
  private readonly extraHeaders: Record<string, string>;
  protected readonly serverExtensions: boolean;

  constructor(options: OpenAICompatibleChatModelOptions) {
    this.serverExtensions = options.serverExtensions ?? true;
    this.baseURL = options.baseURL;
    this.endpoint = endpointIdentity(options.baseURL);
    this.modelId = options.modelId;
    this.apiKey = options.apiKey;
    this.apiKeyEnv = options.apiKeyEnv;
    this.extraHeaders = options.headers ?? {};
  }

  /** Where a route of this API is sent: the configured base URL, credentials included. */
  protected url(route: string): string {
    return routeUrl(this.baseURL, route);
  }

  protected headers(): Record<string, string> {
    return { ...this.extraHeaders, ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) };
  }

  protected authHint(): string {
    return this.apiKeyEnv
      ? `Set ${this.apiKeyEnv} to a valid key for ${this.endpoint}.`
      : 'This endpoint needs a key: name its environment variable with apiKeyEnv in medbench.config.json.';
  }
}
