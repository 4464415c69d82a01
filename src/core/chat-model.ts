/** One turn of a conversation sent to a chat model. */
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

/** How hard a reasoning model thinks (OpenAI's and Azure's `reasoning_effort`). */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/**
 * How a model generates. Beyond temperature and the output limit every field is optional and
 * present only when set (a run made before it existed keeps its id); each adapter sends those its
 * provider takes, under the provider's own names (docs/generation-settings.md), and the config
 * refuses the rest before a run.
 */
export interface GenerationParameters {
  temperature: number;
  /** The answer's limit; a thinking budget comes on top of it, reasoning effort within it. */
  maxOutputTokens: number;
  topP?: number;
  seed?: number;
  /** Stop sequences: the answer ends before the first of them. */
  stop?: string[];
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** A JSON object merged into the request body as it is (an HTTP JSON server's own options). */
  extraBody?: Record<string, unknown>;
  /**
   * OpenAI-style reasoning model (o-series, GPT-5): the limit goes as `max_completion_tokens`
   * (reasoning tokens included) and no temperature is sent.
   */
  reasoningModel?: boolean;
  reasoningEffort?: ReasoningEffort;
  /** Anthropic, Bedrock (Claude) and Gemini: thinking with this budget of tokens. */
  thinkingBudget?: number;
}

/** The generation settings beyond temperature and maxOutputTokens, as the config and the parameters name them. */
export const GENERATION_SETTINGS = [
  'topP',
  'seed',
  'stop',
  'frequencyPenalty',
  'presencePenalty',
  'extraBody',
  'reasoningModel',
  'reasoningEffort',
  'thinkingBudget',
] as const satisfies ReadonlyArray<keyof GenerationParameters>;

/** What a chat model is asked: the conversation and the generation settings. */
export interface ChatRequest {
  /**
   * The conversation. A last message with the assistant role is a prefill: the start of the
   * answer, which the model continues (the text it returns does not repeat it).
   */
  messages: ChatMessage[];
  parameters: GenerationParameters;
  /** Keep only the last this many prompt tokens (server-side truncation), when the model can. */
  truncatePromptTokens?: number;
  /** The prefixes this conversation shares with others of the run (absent: `--no-prompt-cache`, or none). */
  promptCache?: PromptCacheHint;
  /**
   * The leading messages are held in the provider's explicit cache (Gemini's `cachedContents`): the
   * adapter sends the other messages and names the cache. The text the model reads is the same;
   * never part of the response cache key. Set by the runner only for a model with `explicitCache`.
   */
  explicitCache?: ExplicitCacheUse;
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
  /** Why `prefill` is `none` when it is not the API's own limit (a setting makes the API refuse one). */
  noPrefillReason?: string;
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

/** The tokens a request used, as the provider reports them. */
export interface TokenUsage {
  inputTokens: number;
  /** Every generated token billed as output: the answer's, and the reasoning's where there is any. */
  outputTokens: number;
  /** Of `outputTokens`, those spent reasoning (thinking), where the provider reports them. */
  reasoningTokens?: number;
  /**
   * Of `inputTokens`, those the provider read from its prompt cache (OpenAI's and Azure's
   * `prompt_tokens_details.cached_tokens`, Anthropic's `cache_read_input_tokens`, Bedrock's
   * `cacheReadInputTokens`, Gemini's `cachedContentTokenCount`, vLLM's where it reports them).
   * `inputTokens` counts every prompt token: cached, cache-written and plain.
   */
  cachedInputTokens?: number;
  /**
   * Of `inputTokens`, those written to the prompt cache and billed at its write price (Anthropic's
   * `cache_creation_input_tokens`, Bedrock's `cacheWriteInputTokens`).
   */
  cacheWriteTokens?: number;
}

/**
 * Where a conversation shares its text with others of the same run, for the provider's prompt
 * cache. The runner computes it from the prefix order (the prefixes this conversation shares
 * with its neighbours in the walk); an adapter marks them the way its provider caches
 * (Anthropic's `cache_control`, Bedrock's `cachePoint`, OpenAI's and Azure's `prompt_cache_key`)
 * or ignores the hint. It never changes the text sent, nor the response cache key.
 */
export interface PromptCacheHint {
  /**
   * Ends of the shared prefixes, ascending and distinct, at most four: the index of a message in
   * `messages` and a character offset in its content (its length: the whole message). An offset
   * falls just after a line break or a space where one is near, so the text on either side of a
   * split keeps its own tokens.
   */
  breakpoints: ReadonlyArray<{ message: number; offset: number }>;
  /**
   * Where the text is cut into blocks, the breakpoints included (ascending, at most 16): the ends
   * of every prefix this conversation shares with another of the run. Every conversation sharing a
   * prefix is cut at the same places, so a provider that caches by content block (Anthropic,
   * Bedrock) finds the same blocks. Absent: the breakpoints alone.
   */
  cuts?: ReadonlyArray<{ message: number; offset: number }>;
  /**
   * A stable key of the shortest of those prefixes (hex, at most 64 characters): every request
   * that shares it carries the same key (OpenAI's and Azure's `prompt_cache_key`).
   */
  key: string;
}

/** A chat model's answer to one request. */
export interface ChatResponse {
  /** The answer (a reasoning model's thinking, where the API returns it apart, is not in it). */
  text: string;
  /** The thinking a provider returned apart from the answer (`reasoning_content`, thinking blocks). */
  reasoning?: string;
  usage: TokenUsage | undefined;
  /** Provider's finish reason, when it gives one. */
  finishReason: string | undefined;
  /**
   * The model id or version the provider says answered (OpenAI's and Anthropic's `model`, Gemini's
   * `modelVersion`, Ollama's `model`), where it says one: a run's manifest lists those it saw.
   */
  modelVersion?: string;
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
  /**
   * The request as a line of an OpenAI batch file carries it (`medbench export requests`, read by
   * `vllm run-batch`, Ray Data LLM, LiteLLM's batch endpoint): the path and the JSON body
   * `generate` sends. Absent where the API is not OpenAI's chat completions.
   */
  batchRequest?(request: ChatRequest): { url: string; body: Record<string, unknown> };
  /** The provider's explicit prompt cache (Gemini API), where medbench makes one when it pays. */
  readonly explicitCache?: ExplicitCacheApi;
}

/** A provider's explicit cache of a conversation's leading messages, once made. */
export interface ExplicitCacheEntry {
  /** The provider's name of it (Gemini: `cachedContents/…`). */
  name: string;
  /** The tokens it holds, as the provider counted them. */
  tokens: number;
  /** When it expires unless extended (milliseconds since the epoch). */
  expiresAt: number;
}

/**
 * A provider's explicit prompt cache (Gemini's `cachedContents`): whole leading messages held by
 * the provider for a time (billed for storage by the hour), which a request then names and leaves
 * out. The runner decides which prefixes pay (`explicitCachePays`) and makes, extends and deletes
 * them; the adapter sends a request that names one (`ChatRequest.explicitCache`).
 */
export interface ExplicitCacheApi {
  /** The least tokens the provider holds in an explicit cache for this model. */
  readonly minimumTokens: number;
  /** Makes a cache of `messages` for `ttlSeconds`; undefined when the provider refuses it as too small. */
  create(
    messages: readonly ChatMessage[],
    options: { ttlSeconds: number; signal?: AbortSignal },
  ): Promise<ExplicitCacheEntry | undefined>;
  /** A new lifetime from now; the new expiry, or undefined when the cache is gone (expired or deleted). */
  extend(name: string, ttlSeconds: number, signal?: AbortSignal): Promise<number | undefined>;
  /** Deletes it (one already gone is not an error). */
  remove(name: string, signal?: AbortSignal): Promise<void>;
}

/** A request's leading messages held in an explicit cache: the adapter sends the rest and names it. */
export interface ExplicitCacheUse {
  name: string;
  /** How many of the request's leading messages (system messages included) the cache holds. */
  messages: number;
}
