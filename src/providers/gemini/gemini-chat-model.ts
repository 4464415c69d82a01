import type { GenerateContentResponse, GoogleGenAI, Model } from '@google/genai';
import type {
  ChatCapabilities,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { endpointIdentity } from '../endpoint-identity.js';
import { parseRetryAfter } from '../http-json.js';
import { geminiFailure } from './gemini-errors.js';

export interface GeminiChatModelOptions {
  /** A Gemini model name, e.g. gemini-2.5-pro. */
  modelId: string;
  /** The Gemini API: a key (from the environment). */
  apiKey?: string;
  apiKeyEnv?: string;
  /** Vertex AI instead: the project and location, signed in with Application Default Credentials. */
  vertex?: { project: string; location: string };
  /** Another API URL (a private endpoint; a local server in tests). */
  baseURL?: string;
  /** Headers for every request (fixed and secret values alike). */
  headers?: Record<string, string>;
}

const GEMINI_API = 'https://generativelanguage.googleapis.com';

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
    const { vertex } = options;
    const base =
      options.baseURL ?? (vertex ? `https://${vertex.location}-aiplatform.googleapis.com` : GEMINI_API);
    this.endpoint = endpointIdentity(
      vertex ? `${base.replace(/\/+$/, '')}/projects/${vertex.project}/locations/${vertex.location}` : base,
    );
  }

  private async sdk(): Promise<GoogleGenAI> {
    this.client ??= (async () => {
      const { GoogleGenAI } = await import('@google/genai');
      const { vertex } = this.options;
      const httpOptions = {
        ...(this.options.baseURL ? { baseUrl: this.options.baseURL } : {}),
        ...(this.options.headers ? { headers: this.options.headers } : {}),
      };
      return vertex
        ? new GoogleGenAI({ vertexai: true, project: vertex.project, location: vertex.location, httpOptions })
        : new GoogleGenAI({ apiKey: this.options.apiKey ?? '', httpOptions });
    })();
    return this.client;
  }

  /** What must never show in an error: the key and every header value. */
  private secrets(): string[] {
    return [this.options.apiKey ?? '', ...Object.values(this.options.headers ?? {})];
  }

  private authHint(): string {
    if (this.options.vertex)
      return 'Vertex AI signs in with Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS (a service-account key file), `gcloud auth application-default login`, or the attached service account; it needs the role "Vertex AI User" on the project.';
    return `Set ${this.options.apiKeyEnv ?? 'GEMINI_API_KEY'} to a valid Gemini API key.`;
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
