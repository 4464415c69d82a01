import { z } from 'zod';
import { newId } from './platform-basics.js';
import type { PlatformSetup } from './platform-setup.js';
import { type Answered, type Billing, billCachedRead, errorBody, parseBody } from './platform-setup.js';
import type { AutomaticPrefixCache } from './prefix-cache.js';

const contentSchema = z.looseObject({
  role: z.string().optional(),
  parts: z.array(z.looseObject({ text: z.string().optional() })),
});

/** The fields of a GenerateContentRequest the platform reads (proto3 JSON: camelCase or snake_case). */
export const generateRequestSchema = z.looseObject({
  contents: z.array(contentSchema).min(1),
  systemInstruction: contentSchema.optional(),
  system_instruction: contentSchema.optional(),
  tools: z.array(z.unknown()).optional(),
  cachedContent: z.string().optional(),
  cached_content: z.string().optional(),
});

export const cachedContentSchema = z.looseObject({
  model: z.string().regex(/^models\/.+/),
  contents: z.array(contentSchema).optional(),
  systemInstruction: contentSchema.optional(),
  system_instruction: contentSchema.optional(),
  ttl: z
    .string()
    .regex(/^\d+(\.\d+)?s$/)
    .optional(),
  displayName: z.string().optional(),
});

type Content = z.infer<typeof contentSchema>;

/** Text the model reads of a system instruction and contents, in order. */
export function contentsText(system: Content | undefined, contents: readonly Content[]): string {
  const systemText = system ? `system: ${system.parts.map((part) => part.text ?? '').join('')}\n` : '';
  return (
    systemText +
    contents
      .map(
        (content) =>
          `${content.role ?? 'user'}: ${content.parts.map((part) => part.text ?? JSON.stringify(part)).join('')}\n`,
      )
      .join('')
  );
}

export function geminiError(status: number, message?: string) {
  return errorBody('gemini', status, 500, { message });
}

/** An explicit cache (cachedContents): its text, tokens and life. */
export interface ExplicitCache {
  name: string;
  model: string;
  displayName?: string;
  text: string;
  tokens: number;
  createdAt: number;
  expiresAt: number;
  /** Storage billed up to this time. */
  billedUntil: number;
  deleted: boolean;
}

/**
 * The minimum input tokens for context caching (caching guide, table as of 2026-10): 2048 for
 * Gemini 2.5 Flash and Pro, 4096 for Gemini 3 and later.
 */
export function minimumCachingTokens(model: string): number {
  return /gemini-2\./.test(model) ? 2048 : 4096;
}

/**
 * Whether a model caches implicitly: "Implicit caching is enabled by default for all Gemini 2.5
 * and newer models" (caching guide, ai.google.dev/gemini-api/docs/caching, updated 2026-10-13).
 * A name without a version is taken to.
 */
export function cachesImplicitly(model: string): boolean {
  const version = /gemini-(\d+(?:\.\d+)?)/.exec(model)?.[1];
  return version === undefined || Number(version) >= 2.5;
}

export interface GeminiContext extends Omit<PlatformSetup, 'received'> {
  /** The implicit cache: tokens of `text` served from cache for `model`. */
  implicit: Pick<AutomaticPrefixCache, 'read'>;
  explicit: Map<string, ExplicitCache>;
}

/** The live explicit cache a request names, or the error the API gives. */
function explicitFor(context: GeminiContext, name: string, model: string): ExplicitCache | Answered {
  const cache = context.explicit.get(name);
  if (!cache || cache.deleted || cache.expiresAt <= context.clock.now())
    return { status: 403, body: geminiError(403, `CachedContent not found (or permission denied)`) };
  if (cache.model !== model)
    return {
      status: 400,
      body: geminiError(
        400,
        `Model used by GenerateContent request (${model}) and CachedContent (${cache.model}) has to be the same.`,
      ),
    };
  return cache;
}

/**
 * Answers one generateContent request (sync, or a batch's inlined request): prepends a named
 * explicit cache (reported in cachedContentTokenCount), else reads the implicit cache (prefix of
 * at least the model minimum), bills the ledger and returns the body the API would.
 */
export function generateContent(
  context: GeminiContext,
  model: string,
  raw: unknown,
  billing: Billing,
): Answered {
  const checked = parseBody(generateRequestSchema, raw);
  if (checked.issue)
    return {
      status: 400,
      body: geminiError(400, `Invalid JSON payload: ${checked.issue.path}: ${checked.issue.message}`),
    };
  const request = checked.value;
  const cacheName = request.cachedContent ?? request.cached_content;
  const system = request.systemInstruction ?? request.system_instruction;
  let cached = { text: '', tokens: 0 };
  if (cacheName !== undefined) {
    if (system || request.tools)
      return {
        status: 400,
        body: geminiError(
          400,
          'CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.',
        ),
      };
    const found = explicitFor(context, cacheName, `models/${model}`);
    if ('status' in found) return found;
    cached = found;
  }
  const prompt = cached.text + contentsText(system, request.contents);
  const answer = context.answer(prompt, request);
  if (typeof answer !== 'string') return { status: answer.status, body: geminiError(answer.status) };
  const promptTokens = context.countTokens(prompt);
  const cachedTokens =
    cacheName !== undefined ? cached.tokens : context.implicit.read(model, prompt, promptTokens);
  const outputTokens = billCachedRead(context, { billing, model, promptTokens, cachedTokens, answer });
  return {
    status: 200,
    body: {
      candidates: [{ content: { parts: [{ text: answer }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount: outputTokens,
        totalTokenCount: promptTokens + outputTokens,
        ...(cachedTokens > 0 ? { cachedContentTokenCount: cachedTokens } : {}),
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
        ...(cachedTokens > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cachedTokens }] } : {}),
      },
      modelVersion: model,
      responseId: newId(''),
    },
  };
}
