import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { httpOptions } from '../factory-options.js';
import { APPROVED_REMOTE, OPENAI_STYLE_SETTINGS } from '../openai-compatible/descriptor.js';
import { httpEmbeddingEndpoints, httpEmbeddingOptions } from '../openai-compatible/embedding-factory.js';
import { AZURE_OPENAI_PRICING } from '../openai-compatible/openai-pricing.js';
import { defineEmbedding, defineProvider, type SettingsIssue } from '../provider-descriptor.js';
import { AZURE_OPENAI_DEFAULT_API_VERSION } from './azure-openai-chat-model.js';

/** The first api-version with `reasoning_effort` (Azure's reasoning-models page: 2024-12-01-preview). */
const AZURE_REASONING_EFFORT_SINCE = '2024-12-01';

/** The fields of an Azure OpenAI endpoint or embedding entry. */
const AZURE_SETTINGS = {
  /** The deployment's name. */
  deployment: z.string().min(1).optional(),
  /** The data-plane API version (default 2024-10-21). */
  apiVersion: z.string().min(1).optional(),
  /** `api-key` (apiKeyEnv, the default) or `entra-id` (a Microsoft Entra ID token). */
  auth: z.enum(['api-key', 'entra-id']).optional(),
};

/** An Azure OpenAI deployment: its resource's URL, the deployment, a key or Microsoft Entra ID. */
export const azureOpenAIProvider = defineProvider({
  name: 'azure-openai',
  docs: { title: 'Azure OpenAI', page: 'azure-openai.md' },
  spec: {
    // A deployment needs its resource and deployment name: a config entry, not an inline spec.
    form: 'azure-openai',
    note: 'a medbench.config.json entry with baseURL and deployment',
    parse: () => undefined,
  },
  transport: 'http',
  signIn: 'key (apiKeyEnv), or Entra ID',
  keyRequired: false,
  settings: AZURE_SETTINGS,
  checkEndpoint(endpoint) {
    const issues: SettingsIssue[] = [];
    if (!endpoint.deployment)
      issues.push({ path: ['deployment'], message: 'azure-openai needs the deployment name' });
    if (endpoint.auth === 'entra-id' && endpoint.apiKeyEnv)
      issues.push({ path: ['auth'], message: 'entra-id takes no apiKeyEnv' });
    return issues;
  },
  capabilities: {
    tokenCounting: 'local tokenizer',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: `with human review opted out, ${APPROVED_REMOTE}`,
  },
  pricing: AZURE_OPENAI_PRICING,
  generationSettings: OPENAI_STYLE_SETTINGS,
  reasoningModelsByName: true,
  /**
   * Azure OpenAI's GA api-version 2024-10-21 (medbench's default) has `max_completion_tokens` but no
   * `reasoning_effort` (its inference.json in Azure/azure-rest-api-specs); Azure's reasoning-models
   * page lists 2024-12-01-preview for o1 and o3-mini, with reasoning effort. Dated versions before
   * it are refused; others (`preview`, `v1`) are left to the service.
   */
  checkModel(where, model) {
    if (model.reasoningEffort === undefined) return;
    for (const endpoint of model.endpoints ?? []) {
      const version = endpoint.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION;
      if (/^\d{4}-\d{2}-\d{2}/.test(version) && version.slice(0, 10) < AZURE_REASONING_EFFORT_SINCE)
        throw new MedbenchError({
          code: 'CONFIG_INVALID',
          message: `${where}: reasoningEffort goes as reasoning_effort, which Azure OpenAI's api-version ${version}${endpoint.apiVersion ? '' : ' (the default)'} does not have.`,
          hint: 'Set the endpoint\'s "apiVersion": "2024-12-01-preview" (or later), as Azure documents for its reasoning models, or remove "reasoningEffort". See docs/providers/azure-openai.md.',
        });
    }
  },
  async createChat(options) {
    const { AzureOpenAIChatModel } = await import('./azure-openai-chat-model.js');
    const { deployment, apiVersion, auth } = options.settings;
    const entra = auth === 'entra-id';
    if (!entra && !options.apiKey)
      throw new MedbenchError({
        code: 'MISSING_SECRET',
        message: options.apiKeyEnv
          ? `The environment variable ${options.apiKeyEnv} is not set.`
          : `The Azure OpenAI deployment "${deployment}" has no key: its endpoint names no apiKeyEnv.`,
        hint: 'Give the endpoint "apiKeyEnv" (the variable holding the resource key) or "auth": "entra-id" to sign in with Microsoft Entra ID.',
      });
    const { entraIdBearerToken } = await import('./entra-id-token.js');
    return new AzureOpenAIChatModel({
      resourceURL: options.baseURL,
      deployment: deployment!,
      modelId: options.modelId,
      reasoningModel: options.parameters.reasoningModel === true,
      ...(apiVersion ? { apiVersion } : {}),
      ...httpOptions(options),
      ...(entra ? { bearerToken: await entraIdBearerToken() } : {}),
    });
  },
  embedding: defineEmbedding({
    name: 'azure-openai',
    specForm: 'azure-openai (a medbench.config.json entry)',
    parse: () => undefined,
    settings: AZURE_SETTINGS,
    check: (entry) =>
      entry.baseURL && entry.deployment
        ? undefined
        : 'azure-openai needs "baseURL" (the resource endpoint) and "deployment"',
    endpoints: httpEmbeddingEndpoints,
    /** An Azure OpenAI embedding deployment: its key, or an Entra ID token. */
    async create(options) {
      const common = httpEmbeddingOptions(options);
      const { entry } = options;
      const { AzureOpenAIEmbeddingModel } = await import('./azure-openai-embedding-model.js');
      const entra = entry.auth === 'entra-id';
      if (!entra && !common.apiKey)
        throw new MedbenchError({
          code: 'MISSING_SECRET',
          message: `The Azure OpenAI embedding deployment "${entry.deployment}" has no key.`,
          hint: 'Give it "apiKeyEnv" (the variable holding the resource key) or "auth": "entra-id".',
        });
      const { entraIdBearerToken } = await import('./entra-id-token.js');
      return new AzureOpenAIEmbeddingModel({
        ...common,
        resourceURL: entry.baseURL!,
        deployment: entry.deployment!,
        ...(entry.apiVersion ? { apiVersion: entry.apiVersion } : {}),
        ...(entra ? { bearerToken: await entraIdBearerToken() } : {}),
      });
    },
  }),
});
