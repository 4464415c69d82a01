import type { ChatModel, GenerationParameters } from '../core/chat-model.js';
import type { Tokenizer } from '../core/tokenizer.js';

export interface Prices {
  /** Currency units per million input tokens (the list price: no cache, no batch). */
  inputPerMillion: number;
  outputPerMillion: number;
  /** Per million input tokens read from the prompt cache (default: the provider's documented share of the input price). */
  cachedInputPerMillion?: number;
  /** Per million input tokens written to the prompt cache (Anthropic, Bedrock; default: the provider's documented multiple). */
  cacheWritePerMillion?: number;
  /** What a batch API answer costs as a share of the prices above (default: the provider's, 0.5 where documented). */
  batchMultiplier?: number;
  /**
   * Per million tokens held an hour in an explicit cache (Gemini's `cachedContents`; default: the
   * provider's documented storage price). Without it no explicit cache is made: whether one pays is unknown.
   */
  cacheStoragePerMillionPerHour?: number;
}

/** A model as the runner uses it: one or more endpoints, its window, tokenizer and prices. */
export interface ModelBinding {
  /** Display name in reports. */
  label: string;
  provider: string;
  modelId: string;
  endpoints: ReadonlyArray<{
    model: ChatModel;
    concurrency: number;
    /**
     * What the config says of this endpoint and restricted (credentialed) data: true approves it,
     * false refuses it; undefined leaves it to where the endpoint is (`mayReceiveRestricted`).
     */
    restrictedDataApproved?: boolean;
  }>;
  contextWindow: number | undefined;
  tokenizer: Tokenizer | undefined;
  /**
   * How too_long is judged: by `tokenizer` (default; without one, by `fallbackTokenizer`, an
   * estimate), or by each endpoint's own count-tokens route (`endpoint`).
   */
  countTokens?: 'tokenizer' | 'endpoint';
  /** Counts prompts for too_long when the model has no tokenizer of its own (an estimate). */
  fallbackTokenizer?: Tokenizer;
  prices: Prices | undefined;
  /** A chat (instruction-tuned) model; false for a base model prompted with plain text. */
  instruct: boolean;
  /** The chat template has a system role (else the system prompt joins the first user turn). */
  systemRole: boolean;
  parameters: GenerationParameters;
  /**
   * false (`--no-prompt-cache`): requests carry no `PromptCacheHint` (no cache breakpoints, no
   * `prompt_cache_key`). Not part of the run's id: the text sent and the answers are the same.
   */
  promptCache?: boolean;
  /** Something the user should know of the model's settings (a baseline ignores them). */
  notice?: string;
}

/** The model's description stored with a run: everything that identifies it, no secrets. */
export function describeModel(binding: ModelBinding): Record<string, unknown> {
  return {
    provider: binding.provider,
    modelId: binding.modelId,
    endpoints: binding.endpoints.map((endpoint) => endpoint.model.endpoint),
    contextWindow: binding.contextWindow ?? null,
    tokenizer: binding.tokenizer?.name ?? null,
    tokenizerExact: binding.tokenizer?.exact ?? null,
    ...(binding.countTokens === 'endpoint' ? { countTokens: 'endpoint' } : {}),
    ...(binding.fallbackTokenizer ? { fallbackTokenizer: binding.fallbackTokenizer.name } : {}),
    prices: binding.prices ?? null,
  };
}

/**
 * What a run id covers of the model: everything that can change an answer (the adapter, every
 * endpoint's identity — never a key —, the model, window and tokenizer that decide too_long,
 * how the conversation is assembled), and nothing that cannot (label, prices, concurrency).
 */
export function modelRunIdentity(binding: ModelBinding): Record<string, unknown> {
  return {
    provider: binding.provider,
    modelId: binding.modelId,
    endpoints: [...new Set(binding.endpoints.map((endpoint) => endpoint.model.endpoint))].sort(),
    contextWindow: binding.contextWindow ?? null,
    tokenizer: binding.tokenizer?.name ?? null,
    // Present only when set: runs made before these existed keep their ids.
    ...(binding.countTokens === 'endpoint' ? { countTokens: 'endpoint' } : {}),
    ...(binding.fallbackTokenizer ? { fallbackTokenizer: binding.fallbackTokenizer.name } : {}),
    instruct: binding.instruct,
    systemRole: binding.systemRole,
  };
}
