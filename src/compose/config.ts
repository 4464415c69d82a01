import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import { parseJsonText, readTextFile } from '../io/text-file.js';
import { embeddingEntryFields, environmentName, headersSchema, httpUrl } from '../providers/config-fields.js';
import type {
  EmbeddingDescriptor,
  ProviderDescriptor,
  SettingsIssue,
} from '../providers/provider-descriptor.js';
import {
  EMBEDDING_PROVIDERS,
  PROVIDERS,
  type ProviderRegistry,
  providerNamed,
} from '../providers/registry.js';
import { generationSettingsSchema } from './generation-settings-schema.js';

/** The endpoint fields every provider has, before the providers' own ones. */
const endpointLeading = {
  /** Required but for providers whose SDK knows the service's URL (there: another one, e.g. a VPC endpoint). */
  baseURL: httpUrl.optional(),
  /** Name of the environment variable holding the key; the key itself never goes in a config. */
  apiKeyEnv: environmentName.optional(),
  /**
   * Headers for every request (a gateway's, LiteLLM's, an institution's proxy): a value, or
   * { "env": NAME } for a secret read from the environment (never stored or shown).
   */
  headers: headersSchema.optional(),
  /** Query parameters for every request's URL. */
  query: z.record(z.string().min(1), z.string()).optional(),
};

/** The endpoint fields every provider has, after the providers' own ones. */
const endpointTrailing = {
  concurrency: z.number().int().positive().optional(),
  /**
   * true: this endpoint may receive restricted (credentialed) data, e.g. an Azure OpenAI
   * deployment with human review opted out; false: never, even on this machine. Unset: only
   * in-process models and servers on this machine's loopback addresses may.
   */
  restrictedDataApproved: z.boolean().optional(),
};

const perMillion = z.number({ error: 'must be a number: currency units per million tokens' }).nonnegative();

/**
 * A model's prices per million tokens: input and output (the list price), and optionally the
 * cached-read and cache-write prices and the batch multiplier, which otherwise come from the
 * provider's documented rule (src/providers/provider-pricing.ts).
 */
const pricesSchema = z
  .object({
    inputPerMillion: perMillion,
    outputPerMillion: perMillion,
    cachedInputPerMillion: perMillion.optional(),
    cacheWritePerMillion: perMillion.optional(),
    cacheStoragePerMillionPerHour: z
      .number({ error: 'must be a number: currency units per million tokens held an hour' })
      .nonnegative()
      .optional(),
    batchMultiplier: z
      .number()
      .positive()
      .max(1, 'must be at most 1: the share of the sync price a batch answer costs (0.5 for half price)')
      .optional(),
  })
  .strict();

/** The fields of a model entry besides its provider and endpoints. */
const modelFields = {
  model: z.string().min(1),
  /** openai-compatible: `chat` (default) or `completions` for base models (plain-text prompts). */
  api: z.enum(['chat', 'completions']).optional(),
  /** false for a chat model whose template has no system role (the system prompt joins the first user turn). */
  systemRole: z.boolean().optional(),
  label: z.string().optional(),
};

const modelTrailing = {
  contextWindow: z.number().int().positive().optional(),
  tokenizer: z.string().optional(),
  /** too_long by the tokenizer (default) or by each endpoint's own count-tokens route. */
  countTokens: z.enum(['tokenizer', 'endpoint']).optional(),
  prices: pricesSchema.optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  ...generationSettingsSchema,
};

/** Each provider's own endpoint fields, the providers that take each, in the registry's order. */
function ownSettings(providers: ProviderRegistry): Map<string, { schema: z.ZodType; owners: string[] }> {
  const fields = new Map<string, { schema: z.ZodType; owners: string[] }>();
  for (const provider of providers)
    for (const [field, schema] of Object.entries(provider.settings ?? {})) {
      const known = fields.get(field);
      if (known) known.owners.push(provider.name);
      else fields.set(field, { schema: schema as z.ZodType, owners: [provider.name] });
    }
  return fields;
}

/**
 * A model entry's schema: the fields every model has, one endpoint schema holding every
 * provider's own fields, and each provider's checks (a field it needs; another's field refused).
 */
function modelSchemaFor(providers: ProviderRegistry) {
  const own = ownSettings(providers);
  const endpointSchema = z
    .object({
      ...endpointLeading,
      ...Object.fromEntries([...own].map(([field, { schema }]) => [field, schema])),
      ...endpointTrailing,
    })
    // Each provider's own fields are its factory's to read; to the rest of medbench an endpoint has the common ones.
    .strict() as unknown as z.ZodObject<typeof endpointLeading & typeof endpointTrailing>;
  const names = providers.map((provider) => provider.name) as [string, ...string[]];
  return z
    .object({
      provider: z.enum(names),
      ...modelFields,
      endpoints: z.array(endpointSchema).min(1).optional(),
      ...modelTrailing,
    })
    .strict()
    .superRefine((model, context) => {
      const provider = providerNamed(model.provider, providers)!;
      for (const [index, endpoint] of (model.endpoints ?? []).entries())
        for (const issue of endpointIssues(provider, endpoint as Record<string, unknown>, own))
          context.addIssue({
            code: 'custom',
            path: ['endpoints', index, ...issue.path],
            message: issue.message,
          });
    });
}

/** What is wrong with one endpoint of `provider`'s model. */
function endpointIssues(
  provider: ProviderDescriptor,
  endpoint: Record<string, unknown>,
  own: ReturnType<typeof ownSettings>,
): SettingsIssue[] {
  const issues = [...(provider.checkEndpoint?.(endpoint) ?? [])];
  for (const [field, { owners }] of own)
    if (endpoint[field] !== undefined && !owners.includes(provider.name))
      issues.push({ path: [field], message: `applies to ${owners.join(' and ')} only` });
  // SDK providers know their service's URL; baseURL is then another one (a private endpoint).
  if (provider.transport === 'http' && !endpoint.baseURL)
    issues.push({ path: ['baseURL'], message: 'is required' });
  // In-process models send nothing over the network: a header or query would be dropped unseen.
  if (provider.transport === 'in-process')
    for (const field of ['headers', 'query'] as const)
      if (endpoint[field] !== undefined)
        issues.push({
          path: [field],
          message: `${provider.name} runs in this process and sends no request: remove it`,
        });
  return issues;
}

/**
 * An `embeddingModels` entry's schema: the fields every entry has and each provider's own, then
 * what the entry's provider needs beyond them (one message each).
 */
function embeddingModelSchemaFor(providers: readonly EmbeddingDescriptor[]) {
  const own = Object.assign({}, ...providers.map((provider) => provider.settings ?? {})) as z.ZodRawShape;
  const names = providers.map((provider) => provider.name) as [string, ...string[]];
  const byFolder = providers.filter((provider) => provider.namedByFolder).map((provider) => provider.name);
  // Each provider's own fields are its factory's to read; to the rest of medbench an entry has the common ones.
  return (
    z.object({ provider: z.enum(names), ...embeddingEntryFields, ...own }).strict() as unknown as z.ZodObject<
      { provider: z.ZodString } & typeof embeddingEntryFields
    >
  )
    .refine(
      (value) =>
        byFolder.includes(value.provider)
          ? (value as Record<string, unknown>).folder !== undefined
          : value.model !== undefined,
      { message: `${byFolder.join(', ')} needs "folder"; every other provider needs "model"` },
    )
    .superRefine((value, context) => {
      const message = providers.find((provider) => provider.name === value.provider)?.check?.(value);
      if (message) context.addIssue({ code: 'custom', message });
    });
}

/** The config schema of a registry of providers: medbench's own, or with a caller's (`providersWith`). */
export function configSchemaFor(providers: ProviderRegistry) {
  return z
    .object({
      /** The JSON Schema the file follows, for an editor (`node_modules/medbench/schemas/config.schema.json`); not read. */
      $schema: z.string().optional(),
      models: z.record(z.string(), modelSchemaFor(providers)).default({}),
      /** Embedding models for MedEureka, by name. */
      embeddingModels: z.record(z.string(), embeddingModelSchemaFor(EMBEDDING_PROVIDERS)).default({}),
      defaults: z
        .object({
          concurrency: z.number().int().positive().optional(),
          timeoutMs: z.number().int().positive().optional(),
          maxRetries: z.number().int().nonnegative().max(100).optional(),
          /** The longest wait a Retry-After header may impose. */
          maxRetryWaitMs: z.number().int().nonnegative().optional(),
          /** Per sample, every attempt and wait included. */
          sampleTimeoutMs: z.number().int().positive().optional(),
        })
        .strict()
        .default({}),
    })
    .strict();
}

export const configSchema = configSchemaFor(PROVIDERS);

const modelSchema = modelSchemaFor(PROVIDERS);

export type MedbenchConfig = z.infer<typeof configSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
export type EmbeddingModelConfig = z.infer<ReturnType<typeof embeddingModelSchemaFor>>;

const CONFIG_NAMES = ['medbench.config.json', 'medbench.config.mjs', 'medbench.config.js'];

/**
 * Loads `medbench.config.{json,mjs,js}` from the given path or the working directory;
 * no file means an empty config. Every schema failure names the file and field.
 */
export async function loadConfig(
  explicitPath?: string,
  options: { providers?: ProviderRegistry } = {},
): Promise<{ config: MedbenchConfig; path: string | undefined }> {
  const path = explicitPath
    ? resolve(explicitPath)
    : CONFIG_NAMES.map((name) => join(process.cwd(), name)).find((candidate) => existsSync(candidate));
  const schema = options.providers ? configSchemaFor(options.providers) : configSchema;
  if (!path) return { config: schema.parse({}), path: undefined };
  if (!existsSync(path)) {
    throw new MedbenchError({ code: 'CONFIG_INVALID', message: `Config file not found: ${path}` });
  }
  let raw: unknown;
  try {
    raw = path.endsWith('.json')
      ? parseJsonText(readTextFile(path), path)
      : ((await import(pathToFileURL(path).href)) as { default: unknown }).default;
  } catch (error) {
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      // Decoding and JSON errors name the file (and line) already.
      message: MedbenchError.is(error) ? error.message : `Cannot read ${path}: ${(error as Error).message}`,
      hint: 'A JSON config must be valid JSON; a .mjs/.js config must `export default` an object.',
      cause: error,
    });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      hint: 'See the configuration section of the README for every field.',
    });
  }
  return { config: parsed.data, path };
}
