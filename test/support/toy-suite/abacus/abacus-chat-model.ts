import { z } from 'zod';
import type {
  ChatCapabilities,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
} from '../../../../src/core/chat-model.js';
import { HttpEndpoint, type HttpEndpointOptions } from '../../../../src/providers/http-endpoint.js';
import { field, postJson } from '../../../../src/providers/http-json.js';
import { settleProbe } from '../../../../src/providers/settle-probe.js';

/**
 * Abacus, a made-up answering service that stands for a new provider in docs/adding-a-provider.md.
 * Its protocol: `POST /v1/answer` with `{ model, question, max_tokens, seed? }` and the key in
 * `x-abacus-key` (the ledger, a provider setting, in `x-abacus-ledger`) answers
 * `{ answer, used: { in, out } }`; `GET /v1/models/{model}` answers `{ id, context }` (free).
 */
const answerSchema = z.object({
  answer: z.string(),
  used: z.object({ in: z.number(), out: z.number() }),
});

export interface AbacusChatModelOptions extends HttpEndpointOptions {
  /** The ledger the service bills and keeps this model's answers in (default: `main`). */
  ledger?: string;
}

/** Abacus's answer API: one request per `generate`, a model check before the run. */
export class AbacusChatModel extends HttpEndpoint implements ChatModel {
  readonly provider = 'abacus';
  readonly capabilities: ChatCapabilities = { prefill: 'none', truncatePrompt: false };

  constructor(options: AbacusChatModelOptions) {
    super({
      ...options,
      apiKeyHeader: 'x-abacus-key',
      headers: { ...options.headers, 'x-abacus-ledger': options.ledger ?? 'main' },
      notFoundHint: `Abacus has no model "${options.modelId}": fix the model name.`,
    });
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const response = await postJson({
      url: this.url('/v1/answer'),
      ...(await this.requestOptions()),
      body: {
        model: this.modelId,
        question: request.messages.map((message) => message.content).join('\n\n'),
        max_tokens: request.parameters.maxOutputTokens,
        ...field('seed', request.parameters.seed),
      },
      schema: answerSchema,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return {
      text: response.answer,
      usage: { inputTokens: response.used.in, outputTokens: response.used.out },
      finishReason: undefined,
    };
  }

  /** GET /v1/models/{model}: a refused key or an unknown model fails here, before the run. */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    try {
      const model = await postJson({
        url: this.url(`/v1/models/${encodeURIComponent(this.modelId)}`),
        ...(await this.requestOptions()),
        body: undefined,
        schema: z.object({ id: z.string(), context: z.number().int().positive() }),
        ...(signal ? { signal } : {}),
      });
      return { maxContextTokens: model.context };
    } catch (error) {
      return settleProbe(error);
    }
  }
}
