import { z } from 'zod';
import type { EndpointFacts } from '../../core/chat-model.js';
import { isEndpointOutage, MedbenchError } from '../../core/errors.js';
import { HttpEndpoint, type HttpEndpointOptions } from '../http-endpoint.js';
import { postJson } from '../http-json.js';

export interface OpenAICompatibleChatModelOptions extends HttpEndpointOptions {
  /**
   * Send vLLM's request extensions when asked for (`continue_final_message` for an answer
   * prefill, `truncate_prompt_tokens`); OpenAI's own API refuses unknown fields. Default true.
   */
  serverExtensions?: boolean;
  /**
   * Send a `PromptCacheHint`'s key as `prompt_cache_key` (OpenAI's and Azure's own APIs: it routes
   * requests sharing a prefix to the same cache). Default false: vLLM and others cache by prefix
   * on their own.
   */
  promptCacheKey?: boolean;
  /** false where the URL names the model (an Azure deployment): no `model` field in the body. */
  modelInBody?: boolean;
  /**
   * What GET /models tells before a run: `complete` (OpenAI: a model not listed does not exist),
   * `partial` (default: a server may answer any name, as llama.cpp's does: a notice, not an
   * error), `none` (no such route: nothing is asked).
   */
  modelList?: 'complete' | 'partial' | 'none';
  /** The server has OpenAI's Files and Batch API under the base URL (OpenAI's own): `run --batch` uses it. */
  batchApi?: boolean;
}

const modelListSchema = z.object({
  data: z.array(z.object({ id: z.string(), max_model_len: z.number().int().positive().optional() })),
});

/** What the chat, completions and embeddings adapters of an OpenAI-compatible server share: the model list, vLLM's extensions. */
export abstract class OpenAICompatibleEndpoint extends HttpEndpoint {
  protected readonly serverExtensions: boolean;
  private readonly modelList: 'complete' | 'partial' | 'none';
  /** The body's `model` field: `{ model }`, or nothing where the URL names the model. */
  protected readonly modelField: { model?: string };

  constructor(options: OpenAICompatibleChatModelOptions) {
    super(options);
    this.serverExtensions = options.serverExtensions ?? true;
    this.modelField = options.modelInBody === false ? {} : { model: options.modelId };
    this.modelList = options.modelList ?? 'partial';
  }

  /**
   * One GET /models before a run: refused credentials fail here; the model's window where the
   * server declares it (vLLM's max_model_len); a model the list lacks is an error or a notice.
   * An outage (unreachable, reset, timed out, 5xx) is thrown for the check to judge; a server
   * without the route, or any other refusal, leaves the run to find out.
   */
  async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    if (this.modelList === 'none') return {};
    let listed: z.infer<typeof modelListSchema>;
    try {
      listed = await postJson({
        url: this.url('/models'),
        ...(await this.requestOptions()),
        body: undefined,
        schema: modelListSchema,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (MedbenchError.is(error) && (error.code === 'ENDPOINT_AUTH' || isEndpointOutage(error))) throw error;
      return {};
    }
    const entry = listed.data.find((model) => model.id === this.modelId);
    if (entry) return entry.max_model_len ? { maxContextTokens: entry.max_model_len } : {};
    const names = listed.data.map((model) => model.id);
    const shown = `${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}`;
    if (this.modelList === 'complete')
      throw new MedbenchError({
        code: 'MODEL_NOT_FOUND',
        message: `${this.endpoint} has no model "${this.modelId}".`,
        hint: `Fix the model name${names.length ? ` (this key may use: ${shown})` : ''}.`,
      });
    return names.length > 0
      ? {
          notice: `${this.endpoint} lists ${shown}; "${this.modelId}" is not among them (a server that ignores the model name, such as llama.cpp's, answers anyway).`,
        }
      : {};
  }
}
