import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { InputFile } from './bedrock-s3.js';

/** One record of a batch inference input file. */
export interface BatchRecord {
  recordId: string;
  modelInput: Record<string, unknown>;
  /** The input file's name (relative to the input prefix): its output is `<name>.out`. */
  file: string;
}

/** What processing one record gave: the model's native response body, or an error in its place. */
export interface RecordResult {
  recordId: string;
  modelOutput?: unknown;
  error?: { errorCode: number; errorMessage: string };
  inputTokens: number;
  outputTokens: number;
}

/**
 * Batch inference quotas (Amazon Bedrock service quotas, per model; the defaults are the documented
 * defaults as read on 2026-11-27 — adjustable in a real account, so a test may set its own).
 */
export interface BedrockQuotas {
  minRecordsPerJob: number;
  maxRecordsPerFile: number;
  maxRecordsPerJob: number;
  maxFileBytes: number;
  maxJobBytes: number;
  /** Jobs not yet ended (Submitted through InProgress, Stopping) at once. */
  maxConcurrentJobs: number;
}

export const DEFAULT_BEDROCK_QUOTAS: BedrockQuotas = {
  minRecordsPerJob: 100,
  maxRecordsPerFile: 50_000,
  maxRecordsPerJob: 50_000,
  maxFileBytes: 1024 ** 3,
  maxJobBytes: 5 * 1024 ** 3,
  maxConcurrentJobs: 20,
};

const lineSchema = z.looseObject({
  recordId: z.string().min(1).optional(),
  modelInput: z.record(z.string(), z.unknown()),
});

/** Bedrock adds a recordId to a record without one: 11 letters and digits, as the docs show them. */
function generatedRecordId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length: 11 }, () => alphabet[randomInt(alphabet.length)]).join('');
}

function parseLine(file: string, line: string, number: number): BatchRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `${file} line ${number} is not valid JSON: each line must be one JSON object { "recordId": …, "modelInput": {…} }.`;
  }
  const parsed = lineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${file} line ${number}: ${issue.path.join('.') || 'record'}: ${issue.message}. Each line must be { "recordId": "…", "modelInput": {…} }.`;
  }
  return { recordId: parsed.data.recordId ?? generatedRecordId(), modelInput: parsed.data.modelInput, file };
}

/**
 * The records of a job's input files, or the first problem that fails validation: a line that is not
 * a record, a recordId used twice, a file or job outside the record and size quotas.
 */
export function parseRecords(files: InputFile[], quotas: BedrockQuotas): { records: BatchRecord[] } | string {
  const records: BatchRecord[] = [];
  const seen = new Map<string, string>();
  let bytes = 0;
  for (const file of files) {
    bytes += Buffer.byteLength(file.text);
    if (Buffer.byteLength(file.text) > quotas.maxFileBytes)
      return `${file.name} is larger than the ${quotas.maxFileBytes}-byte quota for one input file.`;
    const lines = file.text.split('\n');
    let count = 0;
    for (const [index, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const record = parseLine(file.name, line, index + 1);
      if (typeof record === 'string') return record;
      const where = `${file.name} line ${index + 1}`;
      const earlier = seen.get(record.recordId);
      if (earlier)
        return `recordId ${record.recordId} appears twice (${earlier} and ${where}): recordIds must be unique in a job.`;
      seen.set(record.recordId, where);
      records.push(record);
      count++;
    }
    if (count > quotas.maxRecordsPerFile)
      return `${file.name} has ${count} records, more than the quota of ${quotas.maxRecordsPerFile} records per input file.`;
  }
  if (bytes > quotas.maxJobBytes)
    return `The job's input is larger than the ${quotas.maxJobBytes}-byte quota.`;
  if (records.length < quotas.minRecordsPerJob)
    return `The job has ${records.length} records, fewer than the minimum of ${quotas.minRecordsPerJob} records per batch inference job.`;
  if (records.length > quotas.maxRecordsPerJob)
    return `The job has ${records.length} records, more than the quota of ${quotas.maxRecordsPerJob} records per batch inference job.`;
  return { records };
}

/** One output line: the record's input and its model output, or an error object in its place. */
export function outputLine(record: BatchRecord, result: RecordResult): string {
  const outcome = result.error ? { error: result.error } : { modelOutput: result.modelOutput };
  return JSON.stringify({ recordId: record.recordId, modelInput: record.modelInput, ...outcome });
}

/** manifest.json.out: the job's record and token counts. */
export function manifest(records: readonly BatchRecord[], results: ReadonlyMap<string, RecordResult>) {
  const processed = [...results.values()];
  return {
    totalRecordCount: records.length,
    processedRecordCount: processed.length,
    successRecordCount: processed.filter((result) => !result.error).length,
    errorRecordCount: processed.filter((result) => result.error).length,
    inputTokenCount: processed.reduce((sum, result) => sum + result.inputTokens, 0),
    outputTokenCount: processed.reduce((sum, result) => sum + result.outputTokens, 0),
  };
}
