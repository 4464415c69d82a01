import type { GenerateContentResponse, GoogleGenAI, Model } from '@google/genai';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
  GenerationParameters,
} from '../../core/chat-model.js';
import { parseRetryAfter } from '../http-json.js';
import { settleProbe } from '../settle-probe.js';
import {
  type GeminiConnection,
  geminiAuthHint,
  geminiClient,
  geminiIdentity,
  geminiSecrets,
} from './gemini-client.js';
import { geminiFailure } from './gemini-errors.js';

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

  constructor(private readonly options: GeminiChatModelOptions) {
    this.modelId = options.modelId;
    this.provider = options.vertex ? 'vertex-ai' : 'gemini';
    this.endpoint = geminiIdentity(options);
  }

  private sdk(): Promise<GoogleGenAI> {
    this.client ??= geminiClient(this.options);
    return this.client;
  }

  private authHint(): string {
    return geminiAuthHint(this.options);
  }

  /** A failure of the SDK as the runner reads it (keys and header values taken out). */
  private failure(caught: unknown, signal: AbortSignal | undefined, retryAfterMs: number | undefined) {
    return geminiFailure(caught, {
      shown: this.endpoint,
      modelId: this.modelId,
      authHint: this.authHint(),
      retryAfterMs,
      signal,
      secrets: this.secrets(),
    });
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
    try {
      const client = await this.sdk();
      described = await client.models.get({
        model: this.modelId,
        ...(signal ? { config: { abortSignal: signal } } : {}),
      });
    } catch (caught) {
      return settleProbe(this.failure(caught, signal, undefined));
    }
    return described.inputTokenLimit ? { maxContextTokens: described.inputTokenLimit } : {};
  }

  /** countTokens (free): Google's own count of the prompt. */
  async countTokens(messages: ChatMessage[], signal?: AbortSignal): Promise<number> {
    try {
      const client = await this.sdk();
      const counted = await client.models.countTokens({
        model: this.modelId,
        contents: contentsOf(messages),
        config: { ...systemOf(messages), ...(signal ? { abortSignal: signal } : {}) },
      });
      return counted.totalTokens ?? 0;
    } catch (caught) {
      throw this.failure(caught, signal, undefined);
    }
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    // The SDK reports a failed call's body, not its headers: Retry-After is read on the way.
    let retryAfterMs: number | undefined;
    const watched: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      return response;
    };
    let response: GenerateContentResponse;
    try {
      const client = await this.sdk();
      response = await client.models.generateContent({
        model: this.modelId,
        contents: contentsOf(request.messages),
        config: {
          ...systemOf(request.messages),
          ...geminiGeneration(request.parameters),
          httpOptions: { fetch: watched },
          ...(request.signal ? { abortSignal: request.signal } : {}),
        },
      });
    } catch (caught) {
      throw this.failure(caught, request.signal, retryAfterMs);
    }
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
              ...(usage.thoughtsTokenCount !== undefined
                ? { reasoningTokens: usage.thoughtsTokenCount }
                : {}),
            }
          : undefined,
      finishReason: candidate?.finishReason ?? response.promptFeedback?.blockReason ?? undefined,
    };
  }
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
