import type { GenerationParameters } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { knownContextWindow } from '../providers/known-models.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { getTokenizer, resolveTokenizerName } from '../tokenizers/registry.js';
import { CHAT_PROVIDERS } from './chat-providers.js';
import type { MedbenchConfig, ModelConfig } from './config.js';
import { endpointHeaders } from './endpoint-headers.js';
import { generationSettings, ignoredSettingsNote } from './generation-settings.js';
import { rememberSecret } from './known-secrets.js';

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
}

/** What a model is judged too_long with when it has no tokenizer of its own: an estimate. */
const FALLBACK_TOKENIZER = 'o200k_base';

/** The authors' generation settings: greedy decoding, 500 output tokens. */
const DEFAULT_TEMPERATURE = 0;
const DEFAULT_MAX_OUTPUT_TOKENS = 500;
const DEFAULT_CONCURRENCY = 4;

const SPEC_HELP =
  'Model specs: a name from medbench.config.json, baseline:extractive, openai:<model>, anthropic:<model>, ollama:<model>[@<base URL>], bedrock:<model id>[@<region>], gemini:<model>, gguf:<file.gguf>, vertex-ai:<model>@<project>/<location>, or openai-compatible:<model>@<base URL> (e.g. openai-compatible:llama3@http://127.0.0.1:8000/v1).';

/** Parses a `--model` string into a model config, looking names up in the config first. */
export function modelConfigFromSpec(spec: string, config: MedbenchConfig): ModelConfig {
  const named = config.models[spec];
  if (named) return named;
  const colon = spec.indexOf(':');
  const [provider, rest] = colon >= 0 ? [spec.slice(0, colon), spec.slice(colon + 1)] : [spec, ''];
  const entry = Object.hasOwn(CHAT_PROVIDERS, provider)
    ? CHAT_PROVIDERS[provider as ModelConfig['provider']]
    : undefined;
  const parsed = entry?.fromSpec(rest);
  if (parsed) {
    for (const endpoint of parsed.endpoints ?? []) checkSpecUrl(spec, endpoint.baseURL);
    return parsed;
  }
  if (provider === 'baseline')
    throw new MedbenchError({
      code: 'MODEL_SPEC_INVALID',
      message: `Unknown baseline "${rest}".`,
      hint: 'Built-in baselines: baseline:extractive.',
    });
  throw new MedbenchError({
    code: 'MODEL_SPEC_INVALID',
    message: `Cannot understand the model spec "${spec}".`,
    hint: SPEC_HELP,
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
}): Promise<ModelBinding> {
  const overrides = options.overrides ?? {};
  const environment = options.environment ?? process.env;
  const modelConfig = modelConfigFromSpec(options.spec, options.config);
  // Before any endpoint is built: a setting the provider cannot send is a config error.
  const settings = generationSettings(options.spec, {
    ...modelConfig,
    ...(overrides.temperature !== undefined ? { temperature: overrides.temperature } : {}),
    ...(overrides.completions ? { api: 'completions' as const } : {}),
  });
  const notice = ignoredSettingsNote(options.spec, modelConfig);
  const defaultConcurrency =
    overrides.concurrency ?? options.config.defaults.concurrency ?? DEFAULT_CONCURRENCY;
  // In-process models have one "endpoint": this process.
  const inProcess = modelConfig.provider === 'baseline' || modelConfig.provider === 'gguf';
  const list: EndpointConfig[] = inProcess ? [{ baseURL: '' }] : (modelConfig.endpoints ?? []);
  if (list.length === 0) {
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `Model "${options.spec}" has no endpoints.`,
      hint: 'Give it endpoints: [{ "baseURL": "http://127.0.0.1:8000/v1" }] in medbench.config.json.',
    });
  }
  const contextWindow =
    overrides.contextWindow ?? modelConfig.contextWindow ?? knownContextWindow(modelConfig.model);
  const parameters = {
    temperature: overrides.temperature ?? modelConfig.temperature ?? DEFAULT_TEMPERATURE,
    maxOutputTokens: overrides.maxOutputTokens ?? modelConfig.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...settings,
  };
  const endpoints = await bindEndpoints({
    list,
    modelConfig,
    parameters,
    overrides,
    environment,
    contextWindow,
    defaultConcurrency,
  });
  const tokenizerName = overrides.tokenizer ?? modelConfig.tokenizer ?? tryTokenizerName(modelConfig.model);
  // A GGUF file carries its own vocabulary and chat template: llama.cpp counts exactly.
  const countTokens =
    overrides.countTokens ??
    modelConfig.countTokens ??
    (modelConfig.provider === 'gguf' ? 'endpoint' : 'tokenizer');
  if (countTokens === 'endpoint') checkCountRoutes(modelConfig.provider, endpoints);
  const tokenizer = tokenizerName ? await getTokenizer(tokenizerName) : undefined;
  // In-process baselines count nothing; every other model gets an estimate rather than none.
  const fallback =
    !tokenizer && countTokens === 'tokenizer' && modelConfig.provider !== 'baseline'
      ? await getTokenizer(FALLBACK_TOKENIZER)
      : undefined;
  return {
    label:
      overrides.label ??
      modelConfig.label ??
      (modelConfig.provider === 'baseline' ? 'baseline:extractive' : modelConfig.model),
    // The provider names the API, so chat and completions answers never share a cache entry.
    provider: endpoints[0]!.model.provider,
    // A GGUF model is its file's digest, not its path.
    modelId: modelConfig.provider === 'gguf' ? endpoints[0]!.model.modelId : modelConfig.model,
    endpoints,
    contextWindow,
    tokenizer,
    ...(countTokens === 'endpoint' ? { countTokens } : {}),
    ...(fallback ? { fallbackTokenizer: fallback } : {}),
    prices: modelConfig.prices,
    instruct: !(overrides.completions ?? modelConfig.api === 'completions'),
    systemRole: overrides.systemRole ?? modelConfig.systemRole ?? true,
    parameters,
    ...(notice ? { notice } : {}),
  };
}

/** Each configured endpoint as the provider's adapter, with its key, headers and concurrency. */
async function bindEndpoints(options: {
  list: EndpointConfig[];
  modelConfig: ModelConfig;
  parameters: GenerationParameters;
  overrides: ModelOverrides;
  environment: NodeJS.ProcessEnv;
  contextWindow: number | undefined;
  defaultConcurrency: number;
}): Promise<ModelBinding['endpoints']> {
  const { list, modelConfig, parameters, overrides, environment, contextWindow, defaultConcurrency } =
    options;
  const provider = CHAT_PROVIDERS[modelConfig.provider];
  return Promise.all(
    list.map(async (endpoint: EndpointConfig) => {
      const apiKeyEnv = overrides.apiKeyEnv ?? endpoint.apiKeyEnv;
      const model = await provider.create({
        baseURL: endpoint.baseURL ?? '',
        modelId: modelConfig.model,
        apiKey: readKey(apiKeyEnv, provider.keyRequired, environment),
        apiKeyEnv,
        completions: overrides.completions ?? modelConfig.api === 'completions',
        ...endpointHeaders(endpoint.headers, environment),
        query: endpoint.query,
        deployment: endpoint.deployment,
        apiVersion: endpoint.apiVersion,
        auth: endpoint.auth,
        project: endpoint.project,
        location: endpoint.location,
        region: endpoint.region,
        profile: endpoint.profile,
        contextWindow,
        parameters,
      });
      return {
        model,
        concurrency: overrides.concurrency ?? endpoint.concurrency ?? defaultConcurrency,
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
    return `warning: no tokenizer is known for ${model.modelId}; too_long is judged with ${model.fallbackTokenizer.name}, an estimate. Give --tokenizer <name> (\`medbench tokenizers\`), or --count-tokens endpoint where the provider counts (Anthropic, Bedrock, Gemini, Vertex AI, vLLM).`;
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
