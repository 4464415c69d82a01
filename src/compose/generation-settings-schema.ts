import { z } from 'zod';

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The path of every key in `value` (at any depth) that a JavaScript object cannot hold as data. */
function prototypeKeyPaths(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => [
    ...(PROTOTYPE_KEYS.has(key) ? [[...path, key]] : []),
    ...prototypeKeyPaths((value as Record<string, unknown>)[key], [
      ...path,
      Array.isArray(value) ? Number(key) : key,
    ]),
  ]);
}

/**
 * extraBody: a JSON object. A `__proto__` key (kept by JSON.parse) would be dropped unseen by any
 * copy (it sets the prototype), and constructor or prototype are no body field either: each is
 * refused where it is, before the record is copied.
 */
const extraBodySchema = z
  .unknown()
  .superRefine((value, context) => {
    for (const path of prototypeKeyPaths(value))
      context.addIssue({
        code: 'custom',
        path,
        message: `"${String(path.at(-1))}" cannot be a key here: JavaScript would take it for the object's prototype or constructor, not a body field; rename or remove it.`,
      });
  })
  .pipe(z.record(z.string().min(1), z.json()));

/**
 * A model's generation settings beyond temperature and maxOutputTokens (config fields). Which
 * provider takes which, and under what name, is its descriptor's `generationSettings`.
 */
export const generationSettingsSchema = {
  /** Nucleus sampling: only the most likely tokens whose probabilities add up to this. */
  topP: z.number().gt(0).max(1).optional(),
  seed: z.number().int().optional(),
  /** The answer ends before the first of these. */
  stop: z.array(z.string().min(1)).min(1).max(16).optional(),
  frequencyPenalty: z.number().min(-2).max(2).optional(),
  presencePenalty: z.number().min(-2).max(2).optional(),
  /** A JSON object merged into each request's body (a server's own options, e.g. vLLM's top_k). */
  extraBody: extraBodySchema.optional(),
  /**
   * An OpenAI-style reasoning model (max_completion_tokens, no temperature): recognised by name
   * for openai and azure-openai (o1, o3, o4-mini, gpt-5); true or false says so for any other.
   */
  reasoningModel: z.boolean().optional(),
  reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  /** Anthropic, Bedrock (Claude) and Gemini: think with this budget of tokens (Gemini: 0 turns it off). */
  thinkingBudget: z.number().int().nonnegative().optional(),
};
