import type { z } from 'zod';
import type { ChatModel, GENERATION_SETTINGS, GenerationParameters } from '../core/chat-model.js';
import type { EmbeddingModel } from '../core/embedding-model.js';
import type { EmbeddingEntry, HeadersConfig } from './config-fields.js';
import type { ProviderPricing } from './provider-pricing.js';

export type GenerationSetting = (typeof GENERATION_SETTINGS)[number];

/**
 * What a chat provider can do, as `medbench providers` and docs/providers/README.md state it (with
 * whether it has embedding models: its descriptor's `embedding`).
 */
export interface DeclaredCapabilities {
  /** Where a prompt's tokens are counted for too_long: the provider's own route, or locally. */
  tokenCounting: 'route' | 'route (vLLM)' | 'local tokenizer' | 'exact, in process' | 'none';
  /** The model's maximum context is read before the run. */
  maxContext: boolean;
  /** An answer prefill the model continues. */
  prefill: 'continue' | 'continue (vLLM)' | 'trimmed' | 'none';
  /** Token log-probabilities: medbench asks no provider for them (no metric uses them). */
  logprobs: false;
  /** Who may receive restricted (credentialed) data through it. */
  restrictedData: string;
}

/** A model as an inline `--model` spec names it: the config entry it stands for. */
export interface SpecModel {
  provider: string;
  model: string;
  endpoints?: Array<Record<string, string>>;
}

/** One problem with a config entry: where (below the entry) and what. */
export interface SettingsIssue {
  path: ReadonlyArray<string | number>;
  message: string;
}

/** What a chat provider's factory gets for one endpoint. */
export interface ChatFactoryOptions<Settings = Record<string, unknown>> {
  /** The endpoint's baseURL ('' when it has none: the service's own, or in process). */
  baseURL: string;
  modelId: string;
  /** The key read from the variable `apiKeyEnv` names (never logged). */
  apiKey: string | undefined;
  apiKeyEnv: string | undefined;
  /** Plain-text prompts to /completions (a base model). */
  completions: boolean;
  /** The config's fixed headers, and those read from the environment (secrets). */
  headers: Record<string, string>;
  secretHeaders: Record<string, string>;
  query: Record<string, string> | undefined;
  /** The endpoint's own settings (its descriptor's `settings`: a deployment, a region …). */
  settings: Partial<Settings>;
  /** The model's context window as the run uses it (Ollama's num_ctx). */
  contextWindow: number | undefined;
  /** The model's generation settings (a reasoning model is probed as one; thinking refuses a prefill). */
  parameters: GenerationParameters;
}

/** A model config as a descriptor's model check reads it: the generic fields and its endpoints. */
export interface DescribedModel<Settings = Record<string, unknown>> {
  model: string;
  reasoningEffort?: string | undefined;
  endpoints?: ReadonlyArray<Partial<Settings>> | undefined;
}

/**
 * One provider, whole: how it is named, what it takes in the config, what it can do and how its
 * adapter is made. A provider is one folder under src/providers/ exporting one of these, and one
 * line in `PROVIDERS` (src/providers/registry.ts); the config schema, `medbench providers`, the
 * `--model` help and docs/providers/README.md's table are derived from them.
 */
export interface ProviderDescriptor<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** The config's `provider` and the prefix of an inline `--model` spec. */
  name: string;
  /** Its row in docs/providers/README.md: the title, its page there, and what it reaches (vLLM, SGLang …). */
  docs: { title: string; page: string; note?: string };
  spec: {
    /** The spec's form, for help texts (`openai:<model>`). */
    form: string;
    /** What `medbench providers` adds after the form (the default URL, the credentials). */
    note?: string;
    /** `<provider>:<rest>` of a `--model` spec as a config entry, or undefined when `rest` does not fit. */
    parse(rest: string): SpecModel | undefined;
    /** What to tell of a `rest` that `parse` refused, where the provider can say better than the spec list. */
    misfit?(rest: string): { message: string; hint: string };
  };
  /**
   * Where its requests go: `http` (an endpoint's baseURL, required), `sdk` (the service's own
   * address unless baseURL names another), `in-process` (no request: headers and query refused).
   */
  transport: 'http' | 'sdk' | 'in-process';
  /** How it signs in, as `medbench providers` shows it: a key, or the provider's own credentials. */
  signIn: string;
  /** A missing key is an error before anything is sent (paid APIs). */
  keyRequired: boolean;
  /**
   * Loads the optional part its adapter needs (`loadOptionalPart`), before any key is read, when a
   * run will send: a part not installed is reported first (installing comes before configuring).
   */
  loadPart?(): Promise<unknown>;
  /** The endpoint fields of this provider alone (zod), beside those every endpoint has. */
  settings?: Shape;
  /** The checks of one endpoint its fields cannot state alone (a field it needs, a combination). */
  checkEndpoint?(endpoint: Partial<z.infer<z.ZodObject<Shape>>> & { apiKeyEnv?: string }): SettingsIssue[];
  capabilities: DeclaredCapabilities;
  /**
   * The generation settings it takes, each with the field it sends it as (the provider's
   * documented name); a setting it lacks is a config error. Baselines generate nothing: `ignored`.
   */
  generationSettings: Partial<Record<GenerationSetting, string>> | 'ignored';
  /** Body fields medbench sets itself: an extraBody may not replace them (default: OpenAI's). */
  ownBodyFields?: readonly string[];
  /** OpenAI-style reasoning models are recognised by name (o1, o3, gpt-5 …). */
  reasoningModelsByName?: boolean;
  /**
   * thinkingBudget is Claude's extended thinking (temperature 1, least budget, topP range): on
   * every model of the provider, or only on its Claude models (Bedrock runs other vendors' too).
   */
  claudeThinking?: 'every model' | 'claude models';
  /** Settings checks of a whole model beyond the table (an API version a setting needs); throws. */
  checkModel?(where: string, model: DescribedModel<z.infer<z.ZodObject<Shape>>>): void;
  /**
   * Its documented price rule: a model's cached, cache-write and batch prices where the config
   * gives only input and output prices. None (local servers): no cache or batch discount assumed.
   */
  pricing?: ProviderPricing;
  /** Makes the chat adapter of one endpoint, importing it lazily. */
  createChat(options: ChatFactoryOptions<z.infer<z.ZodObject<Shape>>>): Promise<ChatModel>;
  /** Its embedding models for MedEureka (`embeddingModels` entries and inline specs), if it has any. */
  embedding?: EmbeddingDescriptor;
}

/** What a run's flags override of an embedding model's entry. */
export interface EmbeddingOverrides {
  instruction?: string;
  pooling?: string;
  batchSize?: number;
  concurrency?: number;
  dimensions?: number;
  encoding?: string;
  apiKeyEnv?: string;
  maxLength?: number;
}

/** What an embedding factory gets: the entry, the flags, and the environment's secrets. */
export interface EmbeddingFactoryOptions<Own = Record<string, unknown>> {
  entry: EmbeddingEntry<Own>;
  overrides: EmbeddingOverrides;
  /** The value of an environment variable (a key), remembered as a secret to keep out of output. */
  readSecret(variable: string): string | undefined;
  /** A dry run sends nothing: a key that is not set is no error yet (the run that sends asks for it). */
  keysDeferred?: boolean;
  /** An entry's headers: fixed values, and secret ones read from the environment. */
  headers(headers: HeadersConfig | undefined): {
    headers: Record<string, string>;
    secretHeaders: Record<string, string>;
  };
}

/** A provider's embedding models: how a spec names one, what its entry takes, and its factory. */
export interface EmbeddingDescriptor<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** The config's `provider` (the chat provider's name where it has one). */
  name: string;
  /** The inline spec's form (`openai:<model>`), for help texts. */
  specForm: string;
  /** The prefix of an inline spec, where it is not the name (`onnx` for local-onnx). */
  specPrefix?: string;
  /** `<prefix>:<rest>` as an entry, or undefined when `rest` does not fit. */
  parse(rest: string): ({ provider: string } & Record<string, string>) | undefined;
  /** The entry fields of this provider alone. */
  settings?: Shape;
  /** The entry names its model by a folder on this machine, not a `model` name. */
  namedByFolder?: boolean;
  /** What an entry must have beyond its fields' own rules, as one message; undefined when it is whole. */
  check?(entry: EmbeddingEntry<z.infer<z.ZodObject<Shape>>>): string | undefined;
  /** The identities of the endpoints its texts go to ('' for this process), for the restricted-data check. */
  endpoints(entry: EmbeddingEntry<z.infer<z.ZodObject<Shape>>>): string[];
  /** The model, or its replicas (several servers of one model; the runner makes them one). */
  create(
    options: EmbeddingFactoryOptions<z.infer<z.ZodObject<Shape>>>,
  ): Promise<EmbeddingModel | EmbeddingModel[]>;
}

/** An embedding descriptor, checked against its own settings' types. */
export function defineEmbedding<Shape extends z.ZodRawShape = Record<never, never>>(
  descriptor: EmbeddingDescriptor<Shape>,
): EmbeddingDescriptor<Shape> {
  return descriptor;
}

/** A descriptor, checked against its own settings' types. */
export function defineProvider<Shape extends z.ZodRawShape = Record<never, never>>(
  descriptor: ProviderDescriptor<Shape>,
): ProviderDescriptor<Shape> {
  return descriptor;
}
