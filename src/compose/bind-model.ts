import type { GenerationParameters } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { knownContextWindow } from '../providers/known-models.js';
import type { ProviderDescriptor } from '../providers/provider-descriptor.js';
import { PROVIDERS, type ProviderRegistry, providerNamed } from '../providers/registry.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { getTokenizer, resolveTokenizerName } from '../tokenizers/registry.js';
import type { MedbenchConfig, ModelConfig } from './config.js';
import { endpointHeaders } from './endpoint-headers.js';
import { generationSettings, ignoredSettingsNote } from './generation-settings.js';
import { rememberSecret } from './known-secrets.js';
import { modelPrices } from './model-prices.js';
import { specSuggestion } from './spec-suggestion.js';

export interface ModelOverrides {
  /** Send plain-text prompts to /completions (a base model). */
  completions?: boolean;
  /** False for a chat model without a system role: the system prompt joins the first user turn. */
  systemRole?: boolean;
  label?: string;
  contextWindow?: number;
  tokenizer?: string;
  concurrency?: number;
  apiKeyEnv?: string;
  temperature?: number;
  maxOutputTokens?: number;
  /** How too_long is judged: the model's tokenizer (default) or each endpoint's count route. */
  countTokens?: 'tokenizer' | 'endpoint';
  /**
   * false (`--no-prompt-cache`): no request carries a prompt cache hint (no cache breakpoints, no
   * `prompt_cache_key`); a provider's automatic caching (OpenAI's, vLLM's) goes on regardless.
   */
  promptCache?: boolean;
}

/** What a model is judged too_long with when it has no tokenizer of its own: an estimate. */
const FALLBACK_TOKENIZER = 'o200k_base';

/** The authors' generation settings: greedy decoding, 500 output tokens. */
const DEFAULT_TEMPERATURE = 0;
const DEFAULT_MAX_OUTPUT_TOKENS = 500;
const DEFAULT_CONCURRENCY = 4;

/** The inline spec forms of `providers`, for help texts: those a spec can name, in the registry's order. */
export function specForms(providers: ProviderRegistry = PROVIDERS): string[] {
  return providers
    .filter((provider) => provider.spec.parse !== undefined && provider.spec.form.includes(':'))
    .map((provider) => provider.spec.form);
}

/** Providers that count a prompt's tokens on their own route (`--count-tokens endpoint`), as their descriptors say. */
export function countingProviders(providers: ProviderRegistry = PROVIDERS): string[] {
  return providers
    .filter((provider) => provider.capabilities.tokenCounting.startsWith('route'))
    .map((provider) => {
      const only = /^route \((.+)\)$/.exec(provider.capabilities.tokenCounting)?.[1];
      return only ?? provider.docs.title;
    });
}

function specHelp(providers: ProviderRegistry): string {
  return `Model specs: a name from medbench.config.json, ${specForms(providers).join(', ')} (e.g. openai-compatible:llama3@http://127.0.0.1:8000/v1).`;
}

/** Parses a `--model` string into a model config, looking names up in the config first. */
export function modelConfigFromSpec(
  spec: string,
  config: MedbenchConfig,
  providers: ProviderRegistry = PROVIDERS,
): ModelConfig {
  const named = config.models[spec];
  if (named) return named;
  const colon = spec.indexOf(':');
  const [provider, rest] = colon >= 0 ? [spec.slice(0, colon), spec.slice(colon + 1)] : [spec, ''];
  const descriptor = providerNamed(provider, providers);
  const parsed = descriptor?.spec.parse(rest) as ModelConfig | undefined;
  if (parsed) {
    for (const endpoint of parsed.endpoints ?? []) checkSpecUrl(spec, endpoint.baseURL);
    return parsed;
  }
  const misfit = descriptor?.spec.misfit?.(rest);
  if (misfit) throw new MedbenchError({ code: 'MODEL_SPEC_INVALID', ...misfit });
  const suggestion = specSuggestion(spec, config, providers);
  throw new MedbenchError({
    code: 'MODEL_SPEC_INVALID',
    message: `Cannot understand the model spec "${spec}".${suggestion ? ` Did you mean "${suggestion}"?` : ''}`,
    hint: specHelp(providers),
  });
}

/** A base URL given in a model spec parses as an http(s) URL (a port from 0 to 65535, a host). */
function checkSpecUrl(spec: string, baseURL: string | undefined): void {
  if (baseURL === undefined) return;
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return;
  const shown = baseURL.replace(/\/\/[^/@]*@/, '//');
  throw new MedbenchError({
    code: 'MODEL_SPEC_INVALID',
    message: `The base URL ${shown} in the model spec "${spec.replace(baseURL, shown)}" is not a valid http(s) URL.`,
    hint: 'A base URL is a scheme, a host, a port from 0 to 65535 and a path, e.g. http://127.0.0.1:8000/v1.',
  });
}

/** The descriptor of a model's provider (a config parsed with other providers may name one not given). */
function registeredProvider(
  spec: string,
  model: ModelConfig,
  providers: ProviderRegistry,
): ProviderDescriptor {
  const provider = providerNamed(model.provider, providers);
  if (provider) return provider;
  throw new MedbenchError({
    code: 'CONFIG_INVALID',
    message: `Model "${spec}" names the provider "${model.provider}", which is not registered.`,
    hint: `Providers: ${providers.map((known) => known.name).join(', ')}.`,
  });
}

function readKey(
  apiKeyEnv: string | undefined,
  required: boolean,
  environment: NodeJS.ProcessEnv,
): string | undefined {
  if (!apiKeyEnv) return undefined;
  const key = environment[apiKeyEnv];
  rememberSecret(key);
  if (!key && required) {
    throw new MedbenchError({
      code: 'MISSING_SECRET',
      message: `The environment variable ${apiKeyEnv} is not set.`,
      hint: `Export ${apiKeyEnv} with your API key (medbench never stores it).`,
    });
  }
  return key || undefined;
}

type EndpointConfig = NonNullable<ModelConfig['endpoints']>[number];

/** Builds the runner's model binding: endpoints with keys from the environment, window, tokenizer. */
export async function bindModel(options: {
  spec: string;
  config: MedbenchConfig;
  overrides?: ModelOverrides;
  environment?: NodeJS.ProcessEnv;
  /** The providers a spec or config entry may name: `PROVIDERS`, or with a caller's own (`providersWith`). */
  providers?: ProviderRegistry;
  /** A dry run sends nothing: a key that is not set is no error yet (the run that sends asks for it). */
  dryRun?: boolean;
}): Promise<ModelBinding> {
  const overrides = options.overrides ?? {};
  const environment = options.environment ?? process.env;
  const providers = options.providers ?? PROVIDERS;
  const modelConfig = modelConfigFromSpec(options.spec, options.config, providers);
  const provider = registeredProvider(options.spec, modelConfig, providers);
  // Before any endpoint is built: a setting the provider cannot send is a config error.
  const settings = generationSettings(options.spec, provider, {
    ...modelConfig,
    ...(overrides.temperature !== undefined ? { temperature: overrides.temperature } : {}),
    ...(overrides.completions ? { api: 'completions' as const } : {}),
  });
  const notice = ignoredSettingsNote(options.spec, provider, modelConfig);
  const defaultConcurrency =
    overrides.concurrency ?? options.config.defaults.concurrency ?? DEFAULT_CONCURRENCY;
  const inProcess = provider.transport === 'in-process';
  const list = endpointList(options.spec, provider, modelConfig);
  const contextWindow =
    overrides.contextWindow ?? modelConfig.contextWindow ?? knownContextWindow(modelConfig.model);
  const parameters = {
    temperature: overrides.temperature ?? modelConfig.temperature ?? DEFAULT_TEMPERATURE,
    maxOutputTokens: overrides.maxOutputTokens ?? modelConfig.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...settings,
  };
  // The optional part before the key (installing comes before configuring); a dry run needs neither.
  if (!options.dryRun) await provider.loadPart?.();
  const endpoints = await bindEndpoints({
    provider,
    list,
    modelConfig,
    parameters,
    overrides,
    environment,
    contextWindow,
    defaultConcurrency,
    keyRequired: provider.keyRequired && !options.dryRun,
  });
  const tokenizerName = overrides.tokenizer ?? modelConfig.tokenizer ?? tryTokenizerName(modelConfig.model);
  // A GGUF file carries its own vocabulary and chat template: llama.cpp counts exactly.
  const exact = provider.capabilities.tokenCounting === 'exact, in process';
  const countTokens = overrides.countTokens ?? modelConfig.countTokens ?? (exact ? 'endpoint' : 'tokenizer');
  if (countTokens === 'endpoint') checkCountRoutes(modelConfig.provider, endpoints);
  const tokenizer = tokenizerName ? await getTokenizer(tokenizerName) : undefined;
  // Baselines, which generate nothing, count nothing; every other model gets an estimate rather than none.
  const generates = provider.generationSettings !== 'ignored';
  const fallback =
    !tokenizer && countTokens === 'tokenizer' && generates
      ? await getTokenizer(FALLBACK_TOKENIZER)
      : undefined;
  return {
    label:
      overrides.label ??
      modelConfig.label ??
      (generates ? modelConfig.model : `${provider.name}:${modelConfig.model}`),
    // The provider names the API, so chat and completions answers never share a cache entry.
    provider: endpoints[0]!.model.provider,
    // An in-process model is what the adapter says (a GGUF model is its file's digest, not its path).
    modelId: inProcess ? endpoints[0]!.model.modelId : modelConfig.model,
    endpoints,
    contextWindow,
    tokenizer,
    ...(countTokens === 'endpoint' ? { countTokens } : {}),
    ...(fallback ? { fallbackTokenizer: fallback } : {}),
    prices: modelPrices(modelConfig.prices, provider.pricing, modelConfig.model),
    instruct: !(overrides.completions ?? modelConfig.api === 'completions'),
    systemRole: overrides.systemRole ?? modelConfig.systemRole ?? true,
    parameters,
    ...(overrides.promptCache === false ? { promptCache: false } : {}),
    ...(notice ? { notice } : {}),
  };
}

/** The endpoints a model is sent to; an in-process model has one "endpoint": this process. */
function endpointList(spec: string, provider: ProviderDescriptor, model: ModelConfig): EndpointConfig[] {
  const list: EndpointConfig[] =
    provider.transport === 'in-process' ? [{ baseURL: '' }] : (model.endpoints ?? []);
  if (list.length > 0) return list;
  throw new MedbenchError({
    code: 'CONFIG_INVALID',
    message: `Model "${spec}" has no endpoints.`,
    hint: 'Give it endpoints: [{ "baseURL": "http://127.0.0.1:8000/v1" }] in medbench.config.json.',
  });
}

/** Each configured endpoint as the provider's adapter, with its key, headers and concurrency. */
async function bindEndpoints(options: {
  provider: ProviderDescriptor;
  list: EndpointConfig[];
  modelConfig: ModelConfig;
  parameters: GenerationParameters;
  overrides: ModelOverrides;
  environment: NodeJS.ProcessEnv;
  contextWindow: number | undefined;
  defaultConcurrency: number;
  keyRequired: boolean;
}): Promise<ModelBinding['endpoints']> {
  const { provider, modelConfig, overrides, environment } = options;
  return Promise.all(
    options.list.map(async (endpoint: EndpointConfig) => {
      const apiKeyEnv = overrides.apiKeyEnv ?? endpoint.apiKeyEnv;
      const model = await provider.createChat({
        baseURL: endpoint.baseURL ?? '',
        modelId: modelConfig.model,
        apiKey: readKey(apiKeyEnv, options.keyRequired, environment),
        apiKeyEnv,
        completions: overrides.completions ?? modelConfig.api === 'completions',
        ...endpointHeaders(endpoint.headers, environment),
        query: endpoint.query,
        settings: endpoint,
        contextWindow: options.contextWindow,
        parameters: options.parameters,
      });
      return {
        model,
        concurrency: overrides.concurrency ?? endpoint.concurrency ?? options.defaultConcurrency,
        ...(endpoint.restrictedDataApproved !== undefined
          ? { restrictedDataApproved: endpoint.restrictedDataApproved }
          : {}),
      };
    }),
  );
}

/** `--count-tokens endpoint` needs every endpoint to have a count route. */
function checkCountRoutes(provider: string, endpoints: ModelBinding['endpoints']): void {
  if (endpoints.every(({ model }) => model.capabilities?.countTokens && model.countTokens)) return;
  throw new MedbenchError({
    code: 'USAGE',
    message: `--count-tokens endpoint: ${provider} has no count-tokens route medbench can use.`,
    hint: 'Anthropic, Amazon Bedrock, Gemini, Vertex AI and vLLM (/tokenize) count prompts themselves; for others give --tokenizer.',
  });
}

/**
 * What the user should know of how too_long is judged for `model`: the fallback estimate, or a
 * tokenizer that only approximates the model's; undefined when it is the model's own or the
 * endpoint counts.
 */
export function tokenCountingNote(model: ModelBinding): string | undefined {
  if (model.countTokens === 'endpoint') return undefined;
  if (model.fallbackTokenizer)
    return `warning: no tokenizer is known for ${model.modelId}; too_long is judged with ${model.fallbackTokenizer.name}, an estimate. Give --tokenizer <name> (\`medbench tokenizers\`), or --count-tokens endpoint where the provider counts (${countingProviders().join(', ')}).`;
  if (model.tokenizer && !model.tokenizer.exact)
    return `warning: ${model.tokenizer.name} only approximates ${model.modelId}'s tokenizer; too_long near the window is an estimate (--count-tokens endpoint asks the provider, where it counts).`;
  return undefined;
}

function tryTokenizerName(modelId: string): string | undefined {
  try {
    return resolveTokenizerName(modelId);
  } catch {
    return undefined;
  }
}
