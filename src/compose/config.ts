import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import { parseJsonText, readTextFile } from '../io/text-file.js';
import { generationSettingsSchema } from './generation-settings-schema.js';

/** A base URL medbench can send requests to: http or https only. */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const environmentName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** An HTTP header's name (RFC 9110 token); Host and Content-Length are medbench's to set. */
const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
  .refine((name) => !/^(host|content-length|content-type|transfer-encoding|connection)$/i.test(name), {
    message: 'is set by medbench',
  });

/** Header name → a value, or { "env": NAME } for a secret read from the environment. */
const headersSchema = z.record(
  headerName,
  z.union([z.string(), z.object({ env: environmentName }).strict()]),
);

const endpointSchema = z
  .object({
    /** Required but for bedrock (there: another runtime URL, e.g. a VPC endpoint). */
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
    /** azure-openai: the deployment's name. */
    deployment: z.string().min(1).optional(),
    /** azure-openai: the data-plane API version (default 2024-10-21). */
    apiVersion: z.string().min(1).optional(),
    /** azure-openai: `api-key` (apiKeyEnv, the default) or `entra-id` (a Microsoft Entra ID token). */
    auth: z.enum(['api-key', 'entra-id']).optional(),
    /** bedrock: the AWS region (default: AWS_REGION) and a named profile (default: the credential chain). */
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as eu-central-1')
      .optional(),
    profile: z.string().min(1).optional(),
    /** vertex-ai: the Google Cloud project and location (e.g. europe-west4). */
    project: z.string().min(1).optional(),
    location: z
      .string()
      .regex(/^[a-z]+(-[a-z]+\d*)*$/, 'must be a Google Cloud location such as europe-west4')
      .optional(),
    concurrency: z.number().int().positive().optional(),
    /**
     * true: this endpoint may receive restricted (credentialed) data, e.g. an Azure OpenAI
     * deployment with human review opted out; false: never, even on this machine. Unset: only
     * in-process models and servers on this machine's loopback addresses may.
     */
    restrictedDataApproved: z.boolean().optional(),
  })
  .strict();

const modelSchema = z
  .object({
    provider: z.enum([
      'openai-compatible',
      'openai',
      'anthropic',
      'azure-openai',
      'bedrock',
      'gemini',
      'vertex-ai',
      'ollama',
      'gguf',
      'baseline',
    ]),
    model: z.string().min(1),
    /** openai-compatible: `chat` (default) or `completions` for base models (plain-text prompts). */
    api: z.enum(['chat', 'completions']).optional(),
    /** false for a chat model whose template has no system role (the system prompt joins the first user turn). */
    systemRole: z.boolean().optional(),
    label: z.string().optional(),
    endpoints: z.array(endpointSchema).min(1).optional(),
    contextWindow: z.number().int().positive().optional(),
    tokenizer: z.string().optional(),
    /** too_long by the tokenizer (default) or by each endpoint's own count-tokens route. */
    countTokens: z.enum(['tokenizer', 'endpoint']).optional(),
    prices: z
      .object({ inputPerMillion: z.number().nonnegative(), outputPerMillion: z.number().nonnegative() })
      .strict()
      .optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    ...generationSettingsSchema,
  })
  .strict()
  .superRefine((model, context) => {
    for (const [index, endpoint] of (model.endpoints ?? []).entries()) {
      const where = ['endpoints', index];
      if (model.provider === 'azure-openai' && !endpoint.deployment)
        context.addIssue({
          code: 'custom',
          path: [...where, 'deployment'],
          message: 'azure-openai needs the deployment name',
        });
      if (model.provider !== 'azure-openai') {
        for (const field of ['deployment', 'apiVersion', 'auth'] as const)
          if (endpoint[field] !== undefined)
            context.addIssue({
              code: 'custom',
              path: [...where, field],
              message: 'applies to azure-openai only',
            });
      }
      // Cloud SDK providers know their service's URL; baseURL is then another one (a private endpoint).
      const sdkProvider = ['bedrock', 'gemini', 'vertex-ai', 'gguf'].includes(model.provider);
      if (!sdkProvider && !endpoint.baseURL)
        context.addIssue({ code: 'custom', path: [...where, 'baseURL'], message: 'is required' });
      for (const field of ['project', 'location'] as const) {
        if (model.provider === 'vertex-ai' && !endpoint[field])
          context.addIssue({
            code: 'custom',
            path: [...where, field],
            message: `vertex-ai needs the ${field}`,
          });
        if (model.provider !== 'vertex-ai' && endpoint[field] !== undefined)
          context.addIssue({ code: 'custom', path: [...where, field], message: 'applies to vertex-ai only' });
      }
      if (model.provider !== 'bedrock') {
        for (const field of ['region', 'profile'] as const)
          if (endpoint[field] !== undefined)
            context.addIssue({ code: 'custom', path: [...where, field], message: 'applies to bedrock only' });
      }
      // In-process models send nothing over the network: a header or query would be dropped unseen.
      if (model.provider === 'gguf' || model.provider === 'baseline') {
        for (const field of ['headers', 'query'] as const)
          if (endpoint[field] !== undefined)
            context.addIssue({
              code: 'custom',
              path: [...where, field],
              message: `${model.provider} runs in this process and sends no request: remove it`,
            });
      }
      if (endpoint.auth === 'entra-id' && endpoint.apiKeyEnv)
        context.addIssue({
          code: 'custom',
          path: [...where, 'auth'],
          message: 'entra-id takes no apiKeyEnv',
        });
    }
  });

const embeddingModelSchema = z
  .object({
    provider: z.enum([
      'openai-compatible',
      'openai',
      'azure-openai',
      'local-onnx',
      'ollama',
      'bedrock',
      'gemini',
      'vertex-ai',
    ]),
    /** Model name sent to the server (openai, openai-compatible). */
    model: z.string().min(1).optional(),
    baseURL: httpUrl.optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
      .optional(),
    /** local-onnx: the exported model folder (model.onnx + tokenizer.json). */
    folder: z.string().min(1).optional(),
    pooling: z.enum(['cls', 'mean', 'last-token']).optional(),
    maxLength: z.number().int().positive().optional(),
    batchSize: z.number().int().positive().optional(),
    concurrency: z.number().int().positive().optional(),
    dimensions: z.number().int().positive().optional(),
    sendDimensions: z.boolean().optional(),
    encodingFormat: z.enum(['float', 'base64']).optional(),
    /** e5, bge, bge-gemma2, none, or a literal template with {instruction} and {query}. */
    instructionTemplate: z.string().optional(),
    revision: z.string().optional(),
    label: z.string().optional(),
    /** As for a chat endpoint: true lets this server receive restricted data, false never. */
    restrictedDataApproved: z.boolean().optional(),
    /** openai-compatible: several replicas of the model, each with its own address, key and concurrency. */
    endpoints: z
      .array(
        z
          .object({
            baseURL: httpUrl,
            apiKeyEnv: environmentName.optional(),
            concurrency: z.number().int().positive().optional(),
            headers: headersSchema.optional(),
            query: z.record(z.string().min(1), z.string()).optional(),
          })
          .strict(),
      )
      .min(1)
      .optional(),
    /** HTTP providers: headers (values or { env } secrets) and query parameters for every request. */
    headers: headersSchema.optional(),
    query: z.record(z.string().min(1), z.string()).optional(),
    /** azure-openai: the deployment, API version and way of signing in. */
    deployment: z.string().min(1).optional(),
    apiVersion: z.string().min(1).optional(),
    auth: z.enum(['api-key', 'entra-id']).optional(),
    /** bedrock: the AWS region and profile; vertex-ai: the project and location. */
    region: z.string().min(1).optional(),
    profile: z.string().min(1).optional(),
    project: z.string().min(1).optional(),
    location: z.string().min(1).optional(),
  })
  .strict()
  .refine(
    (value) => (value.provider === 'local-onnx' ? value.folder !== undefined : value.model !== undefined),
    {
      message: 'local-onnx needs "folder"; every other provider needs "model"',
    },
  )
  .refine((value) => value.provider !== 'vertex-ai' || (value.project && value.location), {
    message: 'vertex-ai needs "project" and "location"',
  })
  .refine((value) => value.provider !== 'azure-openai' || (value.baseURL && value.deployment), {
    message: 'azure-openai needs "baseURL" (the resource endpoint) and "deployment"',
  })
  .refine(
    (value) =>
      value.provider !== 'openai-compatible' ||
      (value.baseURL !== undefined) !== (value.endpoints !== undefined),
    { message: 'openai-compatible needs "baseURL", or "endpoints" for several replicas (not both)' },
  );

export const configSchema = z
  .object({
    models: z.record(z.string(), modelSchema).default({}),
    /** Embedding models for MedEureka, by name. */
    embeddingModels: z.record(z.string(), embeddingModelSchema).default({}),
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

export type MedbenchConfig = z.infer<typeof configSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
export type EmbeddingModelConfig = z.infer<typeof embeddingModelSchema>;

const CONFIG_NAMES = ['medbench.config.json', 'medbench.config.mjs', 'medbench.config.js'];

/**
 * Loads `medbench.config.{json,mjs,js}` from the given path or the working directory;
 * no file means an empty config. Every schema failure names the file and field.
 */
export async function loadConfig(
  explicitPath?: string,
): Promise<{ config: MedbenchConfig; path: string | undefined }> {
  const path = explicitPath
    ? resolve(explicitPath)
    : CONFIG_NAMES.map((name) => join(process.cwd(), name)).find((candidate) => existsSync(candidate));
  if (!path) return { config: configSchema.parse({}), path: undefined };
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
  const parsed = configSchema.safeParse(raw);
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
