import type { EndpointFacts } from '../../core/chat-model.js';
import {
  OpenAICompatibleChatModel,
  type OpenAICompatibleChatModelOptions,
} from '../openai-compatible/openai-compatible-chat-model.js';
import { settleProbe } from '../settle-probe.js';

/** Azure's stable (GA) data-plane API version medbench was checked against. */
export const AZURE_OPENAI_DEFAULT_API_VERSION = '2024-10-21';

/** An `api-key` (from the environment) or, without one, `bearerToken` (Entra ID) signs requests. */
export interface AzureOpenAIOptions
  extends Pick<
    OpenAICompatibleChatModelOptions,
    'modelId' | 'apiKey' | 'apiKeyEnv' | 'bearerToken' | 'headers' | 'secretHeaders' | 'query'
  > {
  /** The resource endpoint, e.g. https://my-resource.openai.azure.com. */
  resourceURL: string;
  /** The deployment's name (Azure routes by it; `modelId` names the model behind it). */
  deployment: string;
  apiVersion?: string;
  /** A reasoning model's deployment (o-series, GPT-5): probed with max_completion_tokens and no temperature. */
  reasoningModel?: boolean;
}

/** The deployment's base URL, under which /chat/completions and /embeddings live. */
export function azureDeploymentURL(resourceURL: string, deployment: string): string {
  return `${resourceURL.replace(/\/+$/, '')}/openai/deployments/${encodeURIComponent(deployment)}`;
}

/** The OpenAI-compatible options of an Azure OpenAI deployment: URL, api-version, auth header. */
export function azureEndpointOptions(options: AzureOpenAIOptions) {
  return {
    baseURL: azureDeploymentURL(options.resourceURL, options.deployment),
    modelId: options.modelId,
    query: { ...options.query, 'api-version': options.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION },
    apiKeyHeader: 'api-key',
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.bearerToken && !options.apiKey ? { bearerToken: options.bearerToken } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.secretHeaders ? { secretHeaders: options.secretHeaders } : {}),
    // Azure refuses vLLM's extra fields; the deployment in the URL names the model.
    serverExtensions: false,
    promptCacheKey: true,
    modelInBody: false,
    // A deployment has no /models route: a wrong one answers 404 on the first request.
    modelList: 'none' as const,
    notFoundHint: `Azure has no deployment "${options.deployment}" at ${options.resourceURL} (or not in api-version ${options.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION}): check the endpoint's "deployment", "baseURL" and "apiVersion" in medbench.config.json.`,
  };
}

/**
 * Azure OpenAI chat: OpenAI's wire format on a deployment's URL, with `api-version` in the
 * query and the key in an `api-key` header (or an Entra ID bearer token).
 */
export class AzureOpenAIChatModel extends OpenAICompatibleChatModel {
  override readonly provider = 'azure-openai';
  private readonly reasoningModel: boolean;

  constructor(options: AzureOpenAIOptions) {
    super(azureEndpointOptions(options));
    this.reasoningModel = options.reasoningModel === true;
  }

  /**
   * Azure's runtime has no free route that names a deployment: the probe is one chat request of
   * one output token ("ping", about ten tokens billed). A wrong key fails it naming the variable, a
   * wrong deployment or API version naming those settings, before any sample is scheduled. A
   * reasoning model gets the fields it takes (max_completion_tokens, 16: it may think first).
   */
  override async probe(signal?: AbortSignal): Promise<EndpointFacts> {
    try {
      await this.generate({
        messages: [{ role: 'user', content: 'ping' }],
        parameters: this.reasoningModel
          ? { temperature: 1, maxOutputTokens: 16, reasoningModel: true }
          : { temperature: 0, maxOutputTokens: 1 },
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      return settleProbe(error);
    }
    return {};
  }
}
