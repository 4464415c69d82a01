import { z } from 'zod';

/**
 * One line of an OpenAI batch output file (OpenAI's Batch API, `vllm run-batch`, LiteLLM):
 * `response` holds the status and the chat completion; `error` is set for a request that failed
 * (OpenAI: `{code, message}`; vLLM: a message or an error object).
 */
export const batchOutputLineSchema = z.object({
  custom_id: z.string().min(1),
  response: z
    .object({
      status_code: z.number().int(),
      body: z.unknown().optional(),
    })
    .nullable()
    .optional(),
  error: z.unknown().optional(),
});

/** Why a line holds no answer, if it does not: the engine's error, or a status other than 200. */
export function batchLineFailure(value: z.infer<typeof batchOutputLineSchema>): string | undefined {
  const status = value.response?.status_code;
  if (value.error !== undefined && value.error !== null)
    return `${status ?? 'no status'}: ${errorText(value.error)}`;
  if (!value.response) return 'no response and no error';
  if (status !== 200) {
    // OpenAI's error file: the API's error body under the status.
    const body = z.object({ error: z.object({ message: z.string() }) }).safeParse(value.response.body);
    return `status ${status}${body.success ? `: ${errorText(body.data)}` : ''}`;
  }
  return undefined;
}

/** An engine's error as one line: OpenAI's {code, message}, vLLM's {error: {message}} or a string. */
function errorText(error: unknown): string {
  const parsed = z
    .union([
      z.string(),
      z.object({ message: z.string() }),
      z.object({ error: z.object({ message: z.string() }) }),
    ])
    .safeParse(error);
  const text = !parsed.success
    ? JSON.stringify(error)
    : typeof parsed.data === 'string'
      ? parsed.data
      : 'message' in parsed.data
        ? parsed.data.message
        : parsed.data.error.message;
  return text.replace(/\s+/g, ' ');
}
