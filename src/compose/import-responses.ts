import { MedbenchError } from '../core/errors.js';
import { readJsonLinesFile } from '../io/text-file.js';
import {
  batchLineFailure,
  batchOutputLineSchema,
} from '../providers/openai-compatible/openai-batch-output.js';
import {
  chatCompletionAnswer,
  chatCompletionSchema,
} from '../providers/openai-compatible/openai-chat-completion.js';
import { type CachedResponse, type ExportedRequest, reportedCounts, Store } from '../store/store.js';
import { resolveHome, storePathIn } from './home.js';
import { redactKnownSecrets, shortReason } from './known-secrets.js';

/** What `importResponses` did with a file. */
export interface ImportSummary {
  /** Lines of the file. */
  lines: number;
  /** Answers put in the response cache. */
  imported: number;
  /** Answers the cache held already (a file imported again). */
  alreadyCached: number;
  /** Lines of requests that failed: not cached (the run sends those itself, or export again). */
  failed: Array<{ line: number; customId: string; reason: string }>;
}

/**
 * An engine's answers to `exportRequests`' file, into the response cache, each under the model
 * of its request, with its usage: the run then takes them from there and sends nothing. Every
 * line is checked before anything is stored: a line that is not a batch output line, whose
 * `custom_id` no export of this home wrote, or whose answer is not a chat completion refuses the
 * whole file. Failed lines (an `error`, or a status other than 200) are counted, not cached.
 */
export function importResponses(options: { file: string; home?: string }): ImportSummary {
  const lines = readJsonLinesFile(options.file, batchOutputLineSchema, {
    expected: {
      custom_id: "the request's custom_id (a string, as `medbench export requests` wrote it)",
      response: 'an object {"status_code", "body"} or null',
    },
    hint: 'Give the output file of the engine that answered `medbench export requests` (OpenAI batch output lines: {"custom_id", "response": {"status_code", "body"}, "error"}).',
  });
  const store = new Store(storePathIn(resolveHome(options.home)));
  try {
    const summary: ImportSummary = { lines: lines.length, imported: 0, alreadyCached: 0, failed: [] };
    const answers: Array<{ request: ExportedRequest; response: CachedResponse }> = [];
    const seen = new Map<string, number>();
    for (const { line, value } of lines) {
      const request = exportedRequest(store, options.file, line, value.custom_id);
      const first = seen.get(value.custom_id);
      if (first !== undefined)
        throw lineError(
          options.file,
          line,
          `custom_id ${value.custom_id} is answered twice (lines ${first} and ${line}).`,
        );
      seen.set(value.custom_id, line);
      const failure = batchLineFailure(value);
      if (failure) {
        summary.failed.push({ line, customId: value.custom_id, reason: shortReason(failure) });
        continue;
      }
      if (store.getCachedResponse(value.custom_id)) {
        summary.alreadyCached++;
        continue;
      }
      answers.push({ request, response: cachedAnswer(options.file, line, request, value.response?.body) });
    }
    store.exportedRequests.answer(answers);
    summary.imported = answers.length;
    return summary;
  } finally {
    store.close();
  }
}

function lineError(file: string, line: number, message: string, hint?: string): MedbenchError {
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `${file}:${line}: ${message}`,
    ...(hint ? { hint } : {}),
  });
}

/** The exported request a line answers; a line for a request no export of this home wrote refuses the file. */
function exportedRequest(store: Store, file: string, line: number, customId: string): ExportedRequest {
  const request = store.exportedRequests.find(customId);
  if (request) return request;
  throw lineError(
    file,
    line,
    `custom_id ${JSON.stringify(customId.slice(0, 80))} is not a request medbench exported to this home; nothing was imported.`,
    'Import the answers into the home whose `medbench export requests` wrote the requests (--home), and the output of that very file (an engine keeps each custom_id as it was).',
  );
}

/** A 200 line's chat completion as the response cache keeps it (as a synchronous answer is kept). */
function cachedAnswer(file: string, line: number, request: ExportedRequest, body: unknown): CachedResponse {
  const parsed = chatCompletionSchema.safeParse(body);
  if (!parsed.success)
    throw lineError(
      file,
      line,
      `its response body is not a chat completion (${parsed.error.issues[0]?.path.join('.') || 'body'}: ${parsed.error.issues[0]?.message}); nothing was imported.`,
      `An answer to ${request.url} is a chat completion object ({"choices": [{"message": {"content"}}], "usage"}).`,
    );
  const answer = chatCompletionAnswer(parsed.data);
  return {
    // A key the engine echoed is taken out, as from a synchronous answer.
    text: redactKnownSecrets(answer.text),
    inputTokens: answer.usage?.inputTokens ?? request.promptTokens,
    outputTokens: answer.usage?.outputTokens ?? null,
    ...reportedCounts(answer.usage),
    finishReason: answer.finishReason === undefined ? null : redactKnownSecrets(answer.finishReason),
  };
}
