export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface GenerationParameters {
  temperature: number;
  maxOutputTokens: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  parameters: GenerationParameters;
  signal?: AbortSignal;
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
  generate(request: ChatRequest): Promise<ChatResponse>;
}
