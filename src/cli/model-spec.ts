import type { ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { AnthropicChatModel } from '../providers/anthropic-chat-model.js';
import { ExtractiveBaselineChatModel } from '../providers/extractive-baseline-chat-model.js';
import { knownContextWindow } from '../providers/known-models.js';
import { OpenAICompatibleChatModel } from '../providers/openai-compatible-chat-model.js';
import { OpenAICompatibleCompletionModel } from '../providers/openai-compatible-completion-model.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { getTokenizer, resolveTokenizerName } from '../tokenizers/registry.js';
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
  'Model specs: a name from medbench.config.json, baseline:extractive, openai:<model>, anthropic:<model>, or openai-compatible:<model>@<base URL> (e.g. openai-compatible:llama3@http://127.0.0.1:8000/v1).';

/** Parses a `--model` string into a model config, looking names up in the config first. */
export function modelConfigFromSpec(spec: string, config: MedbenchConfig): ModelConfig {
  const named = config.models[spec];
  if (named) return named;
  const [provider, rest] = spec.includes(':')
    ? [spec.slice(0, spec.indexOf(':')), spec.slice(spec.indexOf(':') + 1)]
    : [spec, ''];
  if (provider === 'baseline') {
    if (rest !== '' && rest !== 'extractive') {
      throw new MedbenchError({
        code: 'MODEL_SPEC_INVALID',
        message: `Unknown baseline "${rest}".`,
        hint: 'Built-in baselines: baseline:extractive.',
      });
    }
    return { provider: 'baseline', model: 'extractive' };
  }
  if (provider === 'openai' && rest) {
    return {
      provider: 'openai',
      model: rest,
      endpoints: [{ baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' }],
    };
  }
  if (provider === 'anthropic' && rest) {
    return {
      provider: 'anthropic',
      model: rest,
      endpoints: [{ baseURL: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' }],
    };
  }
  if (provider === 'openai-compatible' && rest.includes('@')) {
    // The URL starts at the first "@http(s)://" (it may itself hold user info with an "@").
    const at = rest.search(/@https?:\/\//i);
    const model = rest.slice(0, Math.max(at, 0));
    const baseURL = rest.slice(at + 1);
    if (at > 0 && model) return { provider: 'openai-compatible', model, endpoints: [{ baseURL }] };
  }
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
  let endpoints: ModelBinding['endpoints'];
  if (modelConfig.provider === 'baseline') {
    endpoints = [{ model: new ExtractiveBaselineChatModel(), concurrency: defaultConcurrency }];
  } else {
    const list = modelConfig.endpoints ?? [];
    if (list.length === 0) {
      throw new MedbenchError({
        code: 'CONFIG_INVALID',
        message: `Model "${options.spec}" has no endpoints.`,
        hint: 'Give it endpoints: [{ "baseURL": "http://127.0.0.1:8000/v1" }] in medbench.config.json.',
      });
    }
    endpoints = list.map((endpoint) => {
      const apiKeyEnv = overrides.apiKeyEnv ?? endpoint.apiKeyEnv;
      const apiKey = readKey(apiKeyEnv, modelConfig.provider !== 'openai-compatible', environment);
      const completions = overrides.completions ?? modelConfig.api === 'completions';
      const model: ChatModel =
        completions && modelConfig.provider !== 'anthropic'
          ? new OpenAICompatibleCompletionModel({
              baseURL: endpoint.baseURL,
              modelId: modelConfig.model,
              serverExtensions: modelConfig.provider !== 'openai',
              ...(apiKey ? { apiKey } : {}),
              ...(apiKeyEnv ? { apiKeyEnv } : {}),
            })
          : modelConfig.provider === 'anthropic'
            ? new AnthropicChatModel({
                baseURL: endpoint.baseURL,
                modelId: modelConfig.model,
                apiKey: apiKey ?? '',
                ...(apiKeyEnv ? { apiKeyEnv } : {}),
              })
            : new OpenAICompatibleChatModel({
                baseURL: endpoint.baseURL,
                modelId: modelConfig.model,
                serverExtensions: modelConfig.provider !== 'openai',
                ...(apiKey ? { apiKey } : {}),
                ...(apiKeyEnv ? { apiKeyEnv } : {}),
              });
      return { model, concurrency: overrides.concurrency ?? endpoint.concurrency ?? defaultConcurrency };
    });
  }
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
    contextWindow:
      overrides.contextWindow ?? modelConfig.contextWindow ?? knownContextWindow(modelConfig.model),
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
