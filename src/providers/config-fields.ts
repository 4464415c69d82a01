import { z } from 'zod';

/** A base URL medbench can send requests to: http or https only. */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

export const environmentName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** An HTTP header's name (RFC 9110 token); Host and Content-Length are medbench's to set. */
const headerName = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
  .refine((name) => !/^(host|content-length|content-type|transfer-encoding|connection)$/i.test(name), {
    message: 'is set by medbench',
  });

/** Header name → a value, or { "env": NAME } for a secret read from the environment. */
export const headersSchema = z.record(
  headerName,
  z.union([z.string(), z.object({ env: environmentName }).strict()]),
);

export type HeadersConfig = z.infer<typeof headersSchema>;

/** The fields of every `embeddingModels` entry, besides its provider and the provider's own. */
export const embeddingEntryFields = {
  /** Model name sent to the server. */
  model: z.string().min(1).optional(),
  baseURL: httpUrl.optional(),
  apiKeyEnv: environmentName.optional(),
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
};

/** An `embeddingModels` entry as a provider's embedding factory reads it. */
export type EmbeddingEntry<Own = Record<never, never>> = { provider: string } & z.infer<
  z.ZodObject<typeof embeddingEntryFields>
> &
  Partial<Own>;
