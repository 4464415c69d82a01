import type { GenerateContentResponse, GoogleGenAI, Model } from '@google/genai';
import type {
  ChatCapabilities,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { parseRetryAfter } from '../http-json.js';
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
  readonly capabilities: ChatCapabilities = { prefill: 'none', truncatePrompt: false };
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
      const error = geminiFailure(caught, {
        shown: this.endpoint,
        modelId: this.modelId,
        authHint: this.authHint(),
        retryAfterMs: undefined,
        signal,
        secrets: this.secrets(),
      });
      if (error.code === 'ENDPOINT_AUTH') throw error;
      if (error.status === 404)
        throw new MedbenchError({
          code: 'MODEL_NOT_FOUND',
          message: error.message,
          ...(error.hint ? { hint: error.hint } : {}),
        });
      return {};
    }
    return described.inputTokenLimit ? { maxContextTokens: described.inputTokenLimit } : {};
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const system = request.messages.filter((message) => message.role === 'system');
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
        contents: request.messages
          .filter((message) => message.role !== 'system')
          .map((message) => ({
            role: message.role === 'assistant' ? 'model' : 'user',
            parts: [{ text: message.content }],
          })),
        config: {
          ...(system.length > 0
            ? { systemInstruction: system.map((message) => message.content).join('\n\n') }
            : {}),
          temperature: request.parameters.temperature,
          maxOutputTokens: request.parameters.maxOutputTokens,
          httpOptions: { fetch: watched },
          ...(request.signal ? { abortSignal: request.signal } : {}),
        },
      });
    } catch (caught) {
      throw geminiFailure(caught, {
        shown: this.endpoint,
        modelId: this.modelId,
        authHint: this.authHint(),
        retryAfterMs,
        signal: request.signal,
        secrets: this.secrets(),
      });
    }
    const candidate = response.candidates?.[0];
    const usage = response.usageMetadata;
    return {
      text: (candidate?.content?.parts ?? []).map((part) => (part.thought ? '' : (part.text ?? ''))).join(''),
      usage:
        usage?.promptTokenCount !== undefined
          ? {
              inputTokens: usage.promptTokenCount,
              // Thinking tokens are generated and billed as output.
              outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
            }
          : undefined,
      finishReason: candidate?.finishReason ?? response.promptFeedback?.blockReason ?? undefined,
    };
  }
}
