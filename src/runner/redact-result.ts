import type { Redaction } from '../core/run-record.js';
import { type ResultRecord, sha256 } from '../store/store.js';

/** What `--redact` writes in place of a text error: no server echo of a prompt reaches the store. */
export function redactedText(text: string): string {
  return `[redacted: ${text.length} characters]`;
}

/**
 * A result as `--redact` stores it: the prompt, the raw output, the parsed answer (drawn from the
 * output) and the gold (the dataset's text) replaced by their SHA-256 hashes and lengths; scores,
 * status, counts and timings kept. Reports and leaderboards read only what is kept.
 */
export function redactResult(record: ResultRecord): ResultRecord {
  const prompt = record.prompt;
  const redaction: Redaction = {
    promptSha256: prompt === null ? null : typeof prompt === 'string' ? sha256(prompt) : prompt.hash,
    promptChars: record.promptChars,
    outputSha256: record.rawOutput === null ? null : sha256(record.rawOutput),
    outputChars: record.rawOutput === null ? null : record.rawOutput.length,
    goldSha256: sha256(JSON.stringify(record.gold) ?? 'null'),
  };
  return {
    ...record,
    prompt: null,
    rawOutput: null,
    // Stored as SQL NULL (a parsed value of null would be stored as the JSON text "null").
    parsed: undefined,
    gold: null,
    error: record.error === null ? null : redactedText(record.error),
    redaction,
  };
}
