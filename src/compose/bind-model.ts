import { MedbenchError } from '../core/errors.js';
import { knownContextWindow } from '../providers/known-models.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { getTokenizer, resolveTokenizerName } from '../tokenizers/registry.js';
import { CHAT_PROVIDERS } from './chat-providers.js';
import type { MedbenchConfig, ModelConfig } from './config.js';
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
}

/** The authors' generation settings: greedy decoding, 500 output tokens. */
const DEFAULT_TEMPERATURE = 0;
const DEFAULT_MAX_OUTPUT_TOKENS = 500;
const DEFAULT_CONCURRENCY = 4;

const SPEC_HELP =
  'Model specs: a name from medbench.config.json, baseline:extractive, openai:<model>, anthropic:<model>, ollama:<model>[@<base URL>], bedrock:<model id>[@<region>], gemini:<model>, vertex-ai:<model>@<project>/<location>, or openai-compatible:<model>@<base URL> (e.g. openai-compatible:llama3@http://127.0.0.1:8000/v1).';

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
  if (parsed) return parsed;
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

/**
 * An endpoint's headers: fixed values as they are, `{ env }` values read from the environment
 * (kept apart as secrets: sent, never shown, stored or part of the endpoint's identity).
 */
function endpointHeaders(
  headers: EndpointConfig['headers'],
  environment: NodeJS.ProcessEnv,
): { headers: Record<string, string>; secretHeaders: Record<string, string> } {
  const fixed: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value === 'string') {
      fixed[name] = value;
      continue;
    }
    const read = environment[value.env];
    rememberSecret(read);
    if (!read)
      throw new MedbenchError({
        code: 'MISSING_SECRET',
        message: `The environment variable ${value.env} (for the header ${name}) is not set.`,
        hint: `Export ${value.env}; medbench sends it as ${name} and never stores it.`,
      });
    secret[name] = read;
  }
  return { headers: fixed, secretHeaders: secret };
}

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
  const defaultConcurrency =
    overrides.concurrency ?? options.config.defaults.concurrency ?? DEFAULT_CONCURRENCY;
  const provider = CHAT_PROVIDERS[modelConfig.provider];
  const list: EndpointConfig[] =
    modelConfig.provider === 'baseline' ? [{ baseURL: '' }] : (modelConfig.endpoints ?? []);
  if (list.length === 0) {
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `Model "${options.spec}" has no endpoints.`,
      hint: 'Give it endpoints: [{ "baseURL": "http://127.0.0.1:8000/v1" }] in medbench.config.json.',
    });
  }
  const contextWindow =
    overrides.contextWindow ?? modelConfig.contextWindow ?? knownContextWindow(modelConfig.model);
  const endpoints: ModelBinding['endpoints'] = await Promise.all(
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
  const tokenizerName = overrides.tokenizer ?? modelConfig.tokenizer ?? tryTokenizerName(modelConfig.model);
  return {
    label:
      overrides.label ??
      modelConfig.label ??
      (modelConfig.provider === 'baseline' ? 'baseline:extractive' : modelConfig.model),
    // The provider names the API, so chat and completions answers never share a cache entry.
    provider: endpoints[0]!.model.provider,
    modelId: modelConfig.model,
    endpoints,
    contextWindow,
    tokenizer: tokenizerName ? await getTokenizer(tokenizerName) : undefined,
    prices: modelConfig.prices,
    instruct: !(overrides.completions ?? modelConfig.api === 'completions'),
    systemRole: overrides.systemRole ?? modelConfig.systemRole ?? true,
    parameters: {
      temperature: overrides.temperature ?? modelConfig.temperature ?? DEFAULT_TEMPERATURE,
      maxOutputTokens: overrides.maxOutputTokens ?? modelConfig.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    },
  };
}

function tryTokenizerName(modelId: string): string | undefined {
  try {
    return resolveTokenizerName(modelId);
  } catch {
    return undefined;
  }
}
