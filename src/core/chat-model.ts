export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * One request of a data-generation command (`medbench generate …`): its conversation and the
 * prefill the answer continues (empty: none).
 */
export interface GenerationRequest {
  id: string;
  messages: ChatMessage[];
  prefill: string;
}

export interface GenerationParameters {
  temperature: number;
  maxOutputTokens: number;
}

export interface ChatRequest {
  /**
   * The conversation. A last message with the assistant role is a prefill: the start of the
   * answer, which the model continues (the text it returns does not repeat it).
   */
  messages: ChatMessage[];
  parameters: GenerationParameters;
  /** Keep only the last this many prompt tokens (server-side truncation), when the model can. */
  truncatePromptTokens?: number;
  signal?: AbortSignal;
}

/**
 * What an adapter can do with a request beyond plain messages. `prefill`: `continue` sends a
 * trailing assistant message for the model to continue as it is; `trimmed` does too, but the
 * API refuses trailing whitespace in it; `none` cannot (the caller must leave it out).
 * `truncatePrompt`: honours `truncatePromptTokens`.
 */
export interface ChatCapabilities {
  prefill: 'continue' | 'trimmed' | 'none';
  truncatePrompt: boolean;
  /** The provider counts prompts itself (`countTokens`), for `--count-tokens endpoint`. */
  countTokens?: boolean;
}

/** What an endpoint declares about its model. */
export interface EndpointFacts {
  /** The longest context the model supports, in its own tokens. */
  maxContextTokens?: number;
  /** Something the user should know before the run (a doubtful model name). */
  notice?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResponse {
  text: string;
  usage: TokenUsage | undefined;
  /** Provider's finish reason, when it gives one. */
  finishReason: string | undefined;
}

/**
 * One way of reaching one model: a provider adapter. It sends exactly one request and
 * throws `MedbenchError` (with `retryable` set) on failure; retries, concurrency and
 * caching belong to the runner.
 */
export interface ChatModel {
  readonly provider: string;
  readonly modelId: string;
  /** Endpoint identity for logs and concurrency (base URL, never a key). */
  readonly endpoint: string;
  /** Absent: no prefill, no truncation. */
  readonly capabilities?: ChatCapabilities;
  generate(request: ChatRequest): Promise<ChatResponse>;
  /**
   * One free request that checks the model is there (a wrong model or deployment fails here,
   * naming the setting, before any sample is scheduled) and reads what the server declares.
   */
  probe?(signal?: AbortSignal): Promise<EndpointFacts>;
  /**
   * The provider's own count of a conversation's prompt tokens, from its free count-tokens route
   * (Anthropic, Gemini, Bedrock, vLLM's /tokenize): for too_long with `--count-tokens endpoint`.
   */
  countTokens?(messages: ChatMessage[], signal?: AbortSignal): Promise<number>;
}
