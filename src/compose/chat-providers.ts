import type { ChatModel, GenerationParameters } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import { OLLAMA_DEFAULT_URL } from '../providers/ollama/ollama-default-url.js';
import type { ModelConfig } from './config.js';

/** What a chat provider's factory gets for one endpoint. */
export interface ChatEndpointOptions {
  baseURL: string;
  modelId: string;
  apiKey: string | undefined;
  apiKeyEnv: string | undefined;
  /** Plain-text prompts to /completions (a base model). */
  completions: boolean;
  /** The config's fixed headers, and those read from the environment (secrets). */
  headers: Record<string, string>;
  secretHeaders: Record<string, string>;
  query: Record<string, string> | undefined;
  /** vertex-ai's project and location. */
  project: string | undefined;
  location: string | undefined;
  /** bedrock's region and AWS profile. */
  region: string | undefined;
  profile: string | undefined;
  /** azure-openai's deployment, API version and way of signing in. */
  deployment: string | undefined;
  apiVersion: string | undefined;
  auth: 'api-key' | 'entra-id' | undefined;
  /** The model's context window as the run uses it (Ollama's num_ctx). */
  contextWindow: number | undefined;
  /** The model's generation settings (a reasoning model is probed as one; thinking refuses a prefill). */
  parameters: GenerationParameters;
}

/** The options every HTTP adapter shares: key, fixed and secret headers, query. */
function httpOptions(options: ChatEndpointOptions) {
  return {
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
    headers: options.headers,
    secretHeaders: options.secretHeaders,
    ...(options.query ? { query: options.query } : {}),
  };
}

/** One chat provider: how its inline spec reads, whether it needs a key, and a lazily loaded factory. */
export interface ChatProviderEntry {
  /** `<provider>:<rest>` of a `--model` spec as a config, or undefined when `rest` does not fit. */
  fromSpec(rest: string): ModelConfig | undefined;
  /** The spec's form, for help texts. */
  specForm: string;
  /** A missing key is an error before anything is sent (paid APIs). */
  keyRequired: boolean;
  /** How it signs in, as `medbench providers` shows it: a key, or the provider's own credentials. */
  signIn: string;
  create(options: ChatEndpointOptions): Promise<ChatModel>;
}

async function openAICompatible(options: ChatEndpointOptions, serverExtensions: boolean): Promise<ChatModel> {
  const common = {
    baseURL: options.baseURL,
    modelId: options.modelId,
    serverExtensions,
    // OpenAI's own list is complete: a model it lacks does not exist for this key.
    modelList: serverExtensions ? ('partial' as const) : ('complete' as const),
    ...httpOptions(options),
  };
  if (options.completions) {
    const { OpenAICompatibleCompletionModel } = await import(
      '../providers/openai-compatible/openai-compatible-completion-model.js'
    );
    return new OpenAICompatibleCompletionModel(common);
  }
  const { OpenAICompatibleChatModel } = await import(
    '../providers/openai-compatible/openai-compatible-chat-model.js'
  );
  return new OpenAICompatibleChatModel(common);
}

/** Gemini: the Gemini API with a key, or Vertex AI (project and location) with ADC. */
async function gemini(options: ChatEndpointOptions): Promise<ChatModel> {
  const { GeminiChatModel } = await import('../providers/gemini/gemini-chat-model.js');
  return new GeminiChatModel({
    modelId: options.modelId,
    ...(options.project && options.location
      ? { vertex: { project: options.project, location: options.location } }
      : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...sdkParameters(options),
  });
}

/** Fixed and secret headers and the query, for the adapters that hand them to an SDK. */
function sdkParameters(options: ChatEndpointOptions) {
  return {
    headers: options.headers,
    secretHeaders: options.secretHeaders,
    ...(options.query ? { query: options.query } : {}),
  };
}

/**
 * The chat providers by name: the config's `provider` and the prefix of an inline `--model` spec.
 * A new provider is one entry here (and its adapter in src/providers/).
 */
export const CHAT_PROVIDERS: Readonly<Record<ModelConfig['provider'], ChatProviderEntry>> = {
  'openai-compatible': {
    specForm: 'openai-compatible:<model>@<base URL>',
    signIn: 'a key if the server asks (apiKeyEnv)',
    keyRequired: false,
    fromSpec(rest) {
      // The URL starts at the first "@http(s)://" (it may itself hold user info with an "@").
      const at = rest.search(/@https?:\/\//i);
      const model = rest.slice(0, Math.max(at, 0));
      return at > 0 && model
        ? { provider: 'openai-compatible', model, endpoints: [{ baseURL: rest.slice(at + 1) }] }
        : undefined;
    },
    create: (options) => openAICompatible(options, true),
  },
  openai: {
    specForm: 'openai:<model>',
    signIn: 'key (OPENAI_API_KEY)',
    keyRequired: true,
    fromSpec: (rest) =>
      rest
        ? {
            provider: 'openai',
            model: rest,
            endpoints: [{ baseURL: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' }],
          }
        : undefined,
    create: (options) => openAICompatible(options, false),
  },
  anthropic: {
    specForm: 'anthropic:<model>',
    signIn: 'key (ANTHROPIC_API_KEY)',
    keyRequired: true,
    fromSpec: (rest) =>
      rest
        ? {
            provider: 'anthropic',
            model: rest,
            endpoints: [{ baseURL: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' }],
          }
        : undefined,
    // Anthropic has no completions API: a base-model flag does not apply.
    async create(options) {
      const { AnthropicChatModel } = await import('../providers/anthropic/anthropic-chat-model.js');
      return new AnthropicChatModel({
        baseURL: options.baseURL,
        modelId: options.modelId,
        thinking: options.parameters.thinkingBudget !== undefined,
        ...httpOptions(options),
        apiKey: options.apiKey ?? '',
      });
    },
  },
  'azure-openai': {
    // A deployment needs its resource and deployment name: a config entry, not an inline spec.
    specForm: 'azure-openai (a medbench.config.json entry with baseURL and deployment)',
    signIn: 'key (apiKeyEnv), or Entra ID',
    keyRequired: false,
    fromSpec: () => undefined,
    async create(options) {
      const { AzureOpenAIChatModel } = await import('../providers/azure-openai/azure-openai-chat-model.js');
      const entra = options.auth === 'entra-id';
      if (!entra && !options.apiKey)
        throw new MedbenchError({
          code: 'MISSING_SECRET',
          message: options.apiKeyEnv
            ? `The environment variable ${options.apiKeyEnv} is not set.`
            : `The Azure OpenAI deployment "${options.deployment}" has no key: its endpoint names no apiKeyEnv.`,
          hint: 'Give the endpoint "apiKeyEnv" (the variable holding the resource key) or "auth": "entra-id" to sign in with Microsoft Entra ID.',
        });
      const { entraIdBearerToken } = await import('../providers/azure-openai/entra-id-token.js');
      return new AzureOpenAIChatModel({
        resourceURL: options.baseURL,
        deployment: options.deployment!,
        modelId: options.modelId,
        reasoningModel: options.parameters.reasoningModel === true,
        ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
        ...httpOptions(options),
        ...(entra ? { bearerToken: await entraIdBearerToken() } : {}),
      });
    },
  },
  bedrock: {
    specForm: 'bedrock:<model id>[@<region>] (credentials from the AWS chain)',
    signIn: 'AWS credentials (no key)',
    keyRequired: false,
    fromSpec(rest) {
      const match = /^(.+?)(?:@([a-z]{2}(?:-[a-z]+)+-\d))?$/.exec(rest);
      if (!match) return undefined;
      return { provider: 'bedrock', model: match[1]!, endpoints: [match[2] ? { region: match[2] } : {}] };
    },
    async create(options) {
      const { BedrockChatModel } = await import('../providers/bedrock/bedrock-chat-model.js');
      return new BedrockChatModel({
        modelId: options.modelId,
        ...(options.region ? { region: options.region } : {}),
        ...(options.profile ? { profile: options.profile } : {}),
        ...(options.baseURL ? { endpointURL: options.baseURL } : {}),
        ...sdkParameters(options),
      });
    },
  },
  gemini: {
    specForm: 'gemini:<model> (GEMINI_API_KEY)',
    signIn: 'key (GEMINI_API_KEY)',
    keyRequired: true,
    fromSpec: (rest) =>
      rest ? { provider: 'gemini', model: rest, endpoints: [{ apiKeyEnv: 'GEMINI_API_KEY' }] } : undefined,
    create: (options) => gemini(options),
  },
  'vertex-ai': {
    specForm: 'vertex-ai:<model>@<project>/<location> (Application Default Credentials)',
    signIn: 'Google ADC (no key)',
    keyRequired: false,
    fromSpec(rest) {
      const match = /^(.+)@([^/@]+)\/([a-z0-9-]+)$/.exec(rest);
      return match
        ? {
            provider: 'vertex-ai',
            model: match[1]!,
            endpoints: [{ project: match[2]!, location: match[3]! }],
          }
        : undefined;
    },
    create: (options) => gemini(options),
  },
  ollama: {
    specForm: 'ollama:<model>[@<base URL>] (default http://127.0.0.1:11434)',
    signIn: 'none (a key if a proxy asks)',
    keyRequired: false,
    fromSpec(rest) {
      const at = rest.search(/@https?:\/\//i);
      const model = at >= 0 ? rest.slice(0, at) : rest;
      return model
        ? {
            provider: 'ollama',
            model,
            endpoints: [{ baseURL: at >= 0 ? rest.slice(at + 1) : OLLAMA_DEFAULT_URL }],
          }
        : undefined;
    },
    async create(options) {
      if (options.contextWindow === undefined)
        throw new MedbenchError({
          code: 'USAGE',
          message: `Ollama's "${options.modelId}" needs a context window: medbench sends it as num_ctx, as Ollama otherwise keeps its small default and silently cuts longer prompts.`,
          hint: 'Give --context-window <tokens> (or "contextWindow" in medbench.config.json); a run that first checks the model tells its maximum.',
        });
      const { OllamaChatModel } = await import('../providers/ollama/ollama-chat-model.js');
      return new OllamaChatModel({
        baseURL: options.baseURL,
        modelId: options.modelId,
        contextWindow: options.contextWindow,
        ...httpOptions(options),
      });
    },
  },
  gguf: {
    specForm: 'gguf:<path to a .gguf file> (llama.cpp in a child process, no server)',
    signIn: 'none (on this machine)',
    keyRequired: false,
    fromSpec: (rest) => (rest ? { provider: 'gguf', model: rest } : undefined),
    async create(options) {
      if (options.contextWindow === undefined)
        throw new MedbenchError({
          code: 'USAGE',
          message: `The GGUF model ${options.modelId} needs a context window: llama.cpp allocates it up front.`,
          hint: "Give --context-window <tokens> (at most the model's trained context).",
        });
      const { GgufChatModel } = await import('../providers/gguf/gguf-chat-model.js');
      return GgufChatModel.open({ path: options.modelId, contextWindow: options.contextWindow });
    },
  },
  baseline: {
    specForm: 'baseline:extractive',
    signIn: 'none (in process)',
    keyRequired: false,
    fromSpec: (rest) =>
      rest === '' || rest === 'extractive' ? { provider: 'baseline', model: 'extractive' } : undefined,
    async create() {
      const { ExtractiveBaselineChatModel } = await import(
        '../providers/baselines/extractive-baseline-chat-model.js'
      );
      return new ExtractiveBaselineChatModel();
    },
  },
};
