import type { z } from 'zod';
import { MedbenchError } from '../core/errors.js';
import { getText, postJson } from './http-json.js';

/** How a batch client reaches its API: the endpoint's routes and its headers, hints and secrets. */
export interface BatchHttpAccess {
  /** The URL of a route of the API (query included). */
  url(route: string): string;
  requestOptions(): Promise<{
    headers: Readonly<Record<string, string>>;
    authHint: string;
    secrets: readonly string[];
    notFoundHint?: string;
  }>;
}

/** One JSON call of a batch API (`body` undefined: a GET), with the endpoint's headers. */
export async function batchCall<Schema extends z.ZodType>(
  access: BatchHttpAccess,
  call: { url: string; schema: Schema; body?: unknown; signal?: AbortSignal | undefined },
): Promise<z.infer<Schema>> {
  return postJson({
    url: call.url,
    ...(await access.requestOptions()),
    body: call.body,
    schema: call.schema,
    ...(call.signal ? { signal: call.signal } : {}),
  });
}

/**
 * A results file (JSONL) read whole, each line checked against `schema`: a line that is not one
 * is a bad answer naming `where` (retryable: the next read may get it whole).
 */
export async function readResultLines<Schema extends z.ZodType>(
  access: BatchHttpAccess,
  read: { url: string; schema: Schema; where: string; signal?: AbortSignal | undefined },
): Promise<Array<z.infer<Schema>>> {
  const text = await getText({
    url: read.url,
    ...(await access.requestOptions()),
    ...(read.signal ? { signal: read.signal } : {}),
  });
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed = read.schema.safeParse(jsonOrUndefined(line));
      if (parsed.success) return parsed.data as z.infer<Schema>;
      throw new MedbenchError({
        code: 'ENDPOINT_BAD_RESPONSE',
        message: `${read.where} has a line that is not a batch result: ${line.slice(0, 120)}`,
        retryable: true,
      });
    });
}

/** A line's JSON, or undefined where it is not JSON. */
export function jsonOrUndefined(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
