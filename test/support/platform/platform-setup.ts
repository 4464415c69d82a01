import type { z } from 'zod';
import { errorFixture } from '../providers/wire.js';
import type { BatchEngine } from './batch-engine.js';
import { type Billing, BillingLedger, type PlatformPrices } from './billing-ledger.js';

export type { Billing } from './billing-ledger.js';

import {
  type AnswerFunction,
  type Clock,
  emptyReceived,
  hashAnswer,
  type PlatformOptions,
  quarterCharacters,
  type Received,
  SYSTEM_CLOCK,
  type TokenCounter,
} from './platform-basics.js';

/** A status and the body the API answers with. */
export interface Answered {
  status: number;
  body: unknown;
}

/** What every platform builds from its options: clock, token counter, answers, ledger, counters. */
export interface PlatformSetup {
  clock: Clock;
  countTokens: TokenCounter;
  answer: AnswerFunction;
  ledger: BillingLedger;
  received: Received;
}

/** What every platform lets a test set, and the price table its ledger bills at. */
export interface PlatformBaseOptions extends PlatformOptions {
  prices?: PlatformPrices;
}

export function platformSetup(options: PlatformBaseOptions, prices: PlatformPrices): PlatformSetup {
  return {
    clock: options.clock ?? SYSTEM_CLOCK,
    countTokens: options.countTokens ?? quarterCharacters,
    answer: options.answer ?? hashAnswer,
    ledger: new BillingLedger(options.prices ?? prices),
    received: emptyReceived(),
  };
}

/** The first problem zod found, as "path: message" and the path alone. */
export function firstIssue(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0]!;
  return { path: issue.path.join('.'), message: issue.message };
}

/** What a test holds of any running platform. */
export interface Platform {
  url: string;
  received: Received;
  ledger: BillingLedger;
  /** The batch lifecycle and its test controls (holdAt, advanceOnPoll, advance, process, fail, expire). */
  batches: BatchEngine;
  /** The next results download sends half its body, then closes the connection. */
  cutNextDownload: boolean;
  close(): Promise<void>;
}

/** A request body checked against its schema: the value, or the first problem found. */
export function parseBody<T extends object>(
  schema: z.ZodType<T>,
  raw: unknown,
): { value: T; issue?: undefined } | { issue: { path: string; message: string } } {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { value: parsed.data } : { issue: firstIssue(parsed.error) };
}

/**
 * Bills an automatically cached answer (no cache-write charge: OpenAI, Azure, Gemini's implicit and
 * explicit reads) and returns its output tokens.
 */
export function billCachedRead(
  setup: Pick<PlatformSetup, 'countTokens' | 'ledger'>,
  charge: { billing: Billing; model: string; promptTokens: number; cachedTokens: number; answer: string },
): number {
  const outputTokens = setup.countTokens(charge.answer);
  setup.ledger.charge(charge.billing, charge.model, {
    promptTokens: charge.promptTokens,
    cachedInputTokens: charge.cachedTokens,
    cacheWriteTokens: 0,
    outputTokens,
  });
  return outputTokens;
}

/**
 * The provider's documented error body for `status` (test/support/providers/fixtures), its
 * `fallback` status's when it has none, with the given fields of `error` replaced.
 */
export function errorBody(
  provider: string,
  status: number,
  fallback: number,
  fields: Record<string, unknown> = {},
) {
  const body = structuredClone(errorFixture<{ error: Record<string, unknown> }>(provider, status, fallback));
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) body.error[field] = value;
  return body;
}
