import type { ChatRequest, EndpointFacts } from '../../core/chat-model.js';
import { routeUrl, withQuery } from '../endpoint-identity.js';
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
    // Azure OpenAI's Batch API (a Global Batch deployment) on the resource's /openai/files and /openai/batches.
    batchApi: true,
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

  private readonly resource: { url: string; deployment: string; query: Record<string, string> };

  constructor(options: AzureOpenAIOptions) {
    super(azureEndpointOptions(options));
    this.reasoningModel = options.reasoningModel === true;
    this.resource = {
      url: `${options.resourceURL.replace(/\/+$/, '')}/openai`,
      deployment: options.deployment,
      query: { ...options.query, 'api-version': options.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION },
    };
  }

  /** The resource's Files and Batch API: /openai/files and /openai/batches with the api-version. */
  protected override batchUrl(route: string): string {
    return routeUrl(withQuery(this.resource.url, this.resource.query), route);
  }

  protected override batchEndpoint(): string {
    return '/chat/completions';
  }

  /** A line of Azure's batch file: the deployment named as the body's model. */
  protected override batchLine(request: ChatRequest): { url: string; body: Record<string, unknown> } {
    return {
      url: this.batchEndpoint(),
      body: { ...this.chatBody(request), model: this.resource.deployment },
    };
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
