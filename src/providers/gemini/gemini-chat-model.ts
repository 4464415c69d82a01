import type { GenerateContentResponse, GoogleGenAI, Model } from '@google/genai';
import type { BatchClient } from '../../core/batch-client.js';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
  ExplicitCacheApi,
  GenerationParameters,
} from '../../core/chat-model.js';
import { settleProbe } from '../settle-probe.js';
import { type BatchCallConfig, GeminiBatchClient, inBeta } from './gemini-batch-client.js';
import {
  callSignal,
  type GeminiConnection,
  geminiAuthHint,
  geminiClient,
  geminiIdentity,
  geminiSecrets,
  type WatchedFetch,
  watchedFetch,
} from './gemini-client.js';
import { geminiFailure } from './gemini-errors.js';
import { geminiExplicitCache, isCacheGone } from './gemini-explicit-cache.js';

export interface GeminiChatModelOptions extends GeminiConnection {
  /** A Gemini model name, e.g. gemini-2.5-pro. */
  modelId: string;
}

/**
 * Google Gemini through the official SDK (@google/genai): the Gemini API with a key, or Vertex AI
 * with Application Default Credentials. The SDK's own retries stay off (the runner retries).
 */
export class GeminiChatModel implements ChatModel {
  readonly provider: string;
  readonly capabilities: ChatCapabilities = {
    prefill: 'none',
    truncatePrompt: false,
    countTokens: true,
  };
  readonly modelId: string;
  readonly endpoint: string;
  private client: Promise<GoogleGenAI> | undefined;

  /** Gemini's Batch Mode (the Gemini API; Vertex AI's batches read and write Cloud Storage: none). */
  readonly batchClient?: () => BatchClient;

  /** Gemini's explicit context cache (the Gemini API; not made on Vertex AI). */
  readonly explicitCache?: ExplicitCacheApi;

  /** Caches found gone (expired, deleted): their requests go whole. */
  private readonly goneCaches = new Set<string>();

  constructor(private readonly options: GeminiChatModelOptions) {
    this.modelId = options.modelId;
    this.provider = options.vertex ? 'vertex-ai' : 'gemini';
    this.endpoint = geminiIdentity(options);
    if (!options.vertex) {
      const client = new GeminiBatchClient({
        modelId: this.modelId,
        call: (signal, send) => this.mappedCall(signal, send),
        content: (request) => contentRequest(request),
        answer: geminiAnswer,
      });
      this.batchClient = () => client;
      this.explicitCache = geminiExplicitCache({
        modelId: this.modelId,
        call: (signal, send) => this.mappedCall(signal, send),
        content: (messages) => ({ contents: contentsOf(messages), ...systemOf(messages) }),
      });
    }
  }

  /** One SDK call, its failure as the runner reads it. */
  private async mappedCall<T>(
    signal: AbortSignal | undefined,
    send: (client: GoogleGenAI, config: BatchCallConfig) => Promise<T>,
  ): Promise<T> {
    const watched = watchedFetch(this.options);
    try {
      return await this.call(watched, signal, send);
    } catch (caught) {
      throw this.failure(caught, signal, watched);
    }
  }

  private sdk(): Promise<GoogleGenAI> {
    this.client ??= geminiClient(this.options);
    return this.client;
  }

  private authHint(): string {
    return geminiAuthHint(this.options);
  }

  /** A failure of the SDK as the runner reads it (keys and header values taken out). */
  private failure(caught: unknown, signal: AbortSignal | undefined, watched: WatchedFetch) {
    return geminiFailure(caught, {
      shown: this.endpoint,
      modelId: this.modelId,
      authHint: this.authHint(),
      retryAfterMs: watched.retryAfterMs,
      signal,
      secrets: this.secrets(),
      sent: watched.sent,
    });
  }

  /**
   * One SDK call with what every call takes: the watched fetch (query parameters added) and a
   * signal of its own that follows the caller's (see callSignal).
   */
  private async call<T>(
    watched: WatchedFetch,
    signal: AbortSignal | undefined,
    send: (
      client: GoogleGenAI,
      config: { httpOptions: { fetch: typeof fetch }; abortSignal?: AbortSignal },
    ) => Promise<T>,
  ): Promise<T> {
    const own = callSignal(signal);
    try {
      const client = await this.sdk();
      return await send(client, {
        httpOptions: { fetch: watched.fetch },
        ...(own.signal ? { abortSignal: own.signal } : {}),
      });
    } finally {
      own.done();
    }
  }

  private secrets(): string[] {
    return geminiSecrets(this.options);
  }

  /**
   * models.get (free): a refused key or credentials, or an unknown model, fails here before a run
   * schedules anything; the Gemini API also declares the model's input token limit.
   */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    let described: Model;
    const watched = watchedFetch(this.options);
    try {
      described = await this.call(watched, signal, (client, config) =>
        client.models.get({ model: this.modelId, config }),
      );
    } catch (caught) {
      return settleProbe(this.failure(caught, signal, watched));
    }
    return described.inputTokenLimit ? { maxContextTokens: described.inputTokenLimit } : {};
  }

  /**
   * countTokens (free): Google's own count of the prompt. Vertex AI takes the system instruction
   * as generateContent does; the Gemini API's countTokens takes contents only (the SDK refuses a
   * systemInstruction there), so its system text is counted as a first user turn of contents.
   */
  async countTokens(messages: ChatMessage[], signal?: AbortSignal): Promise<number> {
    const watched = watchedFetch(this.options);
    const system = systemOf(messages);
    const systemTurn = system.systemInstruction
      ? [{ role: 'user', parts: [{ text: system.systemInstruction }] }]
      : [];
    try {
      const counted = await this.call(watched, signal, (client, config) =>
        client.models.countTokens({
          model: this.modelId,
          contents: this.options.vertex ? contentsOf(messages) : [...systemTurn, ...contentsOf(messages)],
          config: { ...(this.options.vertex ? system : {}), ...config },
        }),
      );
      return counted.totalTokens ?? 0;
    } catch (caught) {
      throw this.failure(caught, signal, watched);
    }
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const held = request.explicitCache;
    if (held && !this.goneCaches.has(held.name)) {
      try {
        return geminiAnswer(
          await this.mappedCall(request.signal, (client, config) =>
            client.models.generateContent({
              model: this.modelId,
              // The cache holds the system instruction and the leading contents: the rest goes.
              contents: contentsOf(request.messages.slice(held.messages)),
              config: {
                ...geminiGeneration(request.parameters),
                cachedContent: held.name,
                ...inBeta(config),
              },
            }),
          ),
        );
      } catch (caught) {
        // Expired or deleted meanwhile: the same text goes whole, as without the cache.
        if (!isCacheGone(caught)) throw caught;
        this.goneCaches.add(held.name);
      }
    }
    const response = await this.mappedCall(request.signal, (client, config) => {
      const { contents, config: generation } = contentRequest(request);
      return client.models.generateContent({
        model: this.modelId,
        contents,
        config: { ...generation, ...config },
      });
    });
    return geminiAnswer(response);
  }
}

/** The contents and config of generateContent for a request (as `generate` sends it, a batch's inlined request). */
function contentRequest(request: ChatRequest) {
  return {
    contents: contentsOf(request.messages),
    config: { ...systemOf(request.messages), ...geminiGeneration(request.parameters) },
  };
}

/** A GenerateContentResponse as medbench records it: the text, the thoughts apart, the usage. */
function geminiAnswer(response: GenerateContentResponse): ChatResponse {
  const candidate = response.candidates?.[0];
  const usage = response.usageMetadata;
  const parts = candidate?.content?.parts ?? [];
  const thoughts = parts.map((part) => (part.thought ? (part.text ?? '') : '')).join('');
  return {
    text: parts.map((part) => (part.thought ? '' : (part.text ?? ''))).join(''),
    ...(thoughts ? { reasoning: thoughts } : {}),
    usage:
      usage?.promptTokenCount !== undefined
        ? {
            inputTokens: usage.promptTokenCount,
            // Thinking tokens are generated and billed as output.
            outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
            ...(usage.thoughtsTokenCount !== undefined ? { reasoningTokens: usage.thoughtsTokenCount } : {}),
            // Of promptTokenCount, those the context cache (implicit or explicit) served.
            ...(usage.cachedContentTokenCount !== undefined
              ? { cachedInputTokens: usage.cachedContentTokenCount }
              : {}),
          }
        : undefined,
    finishReason: candidate?.finishReason ?? response.promptFeedback?.blockReason ?? undefined,
    ...(response.modelVersion ? { modelVersion: response.modelVersion } : {}),
  };
}

/**
 * generationConfig's fields (the SDK's names). Thinking: the budget comes on top of the answer's
 * limit (maxOutputTokens counts thoughts too); 0 turns a model's thinking off.
 */
function geminiGeneration(parameters: GenerationParameters) {
  const budget = parameters.thinkingBudget;
  return {
    temperature: parameters.temperature,
    maxOutputTokens: parameters.maxOutputTokens + (budget ?? 0),
    ...(parameters.topP !== undefined ? { topP: parameters.topP } : {}),
    ...(parameters.seed !== undefined ? { seed: parameters.seed } : {}),
    ...(parameters.stop !== undefined ? { stopSequences: parameters.stop } : {}),
    ...(parameters.frequencyPenalty !== undefined ? { frequencyPenalty: parameters.frequencyPenalty } : {}),
    ...(parameters.presencePenalty !== undefined ? { presencePenalty: parameters.presencePenalty } : {}),
    ...(budget !== undefined ? { thinkingConfig: { thinkingBudget: budget } } : {}),
  };
}

/** Gemini's turns: user and model, each one text part; system messages go apart. */
function contentsOf(messages: readonly ChatMessage[]) {
  return messages
    .filter((message) => message.role !== 'system')
    .map((message) => ({
      role: message.role === 'assistant' ? 'model' : 'user',
      parts: [{ text: message.content }],
    }));
}

function systemOf(messages: readonly ChatMessage[]): { systemInstruction?: string } {
  const system = messages.filter((message) => message.role === 'system');
  return system.length > 0
    ? { systemInstruction: system.map((message) => message.content).join('\n\n') }
    : {};
}
