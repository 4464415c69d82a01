import { z } from 'zod';
import type { BatchLine } from './batch-engine.js';
import { type Exchange, newId } from './platform-basics.js';

/** Documented limits of a batch input file (OpenAI Batch API: 50,000 requests, 200 MB). */
export const BATCH_FILE_LIMITS = { requests: 50_000, bytes: 200 * 1024 * 1024 };

export interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: number;
  createdAt: number;
  content: string;
}

interface Part {
  name: string;
  filename?: string;
  content: Buffer;
}

/** The parts of a multipart/form-data body, or a reason it is not one. */
export function multipartParts(exchange: Exchange): Part[] | string {
  const type = exchange.headers['content-type'] ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  if (!type.startsWith('multipart/form-data') || !boundary)
    return 'The request must be multipart/form-data with a boundary.';
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: Part[] = [];
  let start = exchange.raw.indexOf(delimiter);
  while (start >= 0) {
    const next = exchange.raw.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const chunk = exchange.raw.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = chunk.indexOf('\r\n\r\n');
    const headers = chunk.subarray(0, headerEnd).toString('utf8');
    const name = /name="([^"]*)"/.exec(headers)?.[1];
    const filename = /filename="([^"]*)"/.exec(headers)?.[1];
    if (name !== undefined)
      parts.push({
        name,
        ...(filename !== undefined ? { filename } : {}),
        content: chunk.subarray(headerEnd + 4),
      });
    start = next;
  }
  return parts;
}

/** The uploaded file in a files.create request, or the reason it is refused. */
export function uploadedFile(
  exchange: Exchange,
  now: number,
): StoredFile | { param: string; message: string } {
  const parts = multipartParts(exchange);
  if (typeof parts === 'string') return { param: 'file', message: parts };
  const purpose = parts.find((part) => part.name === 'purpose')?.content.toString('utf8');
  const file = parts.find((part) => part.name === 'file');
  if (!purpose) return { param: 'purpose', message: "Missing required parameter: 'purpose'." };
  if (!file) return { param: 'file', message: "Missing required parameter: 'file'." };
  const content = file.content.toString('utf8');
  if (purpose === 'batch') {
    const problem = jsonlProblem(content, file.content.length);
    if (problem) return { param: 'file', message: problem };
  }
  return {
    id: newId('file-'),
    filename: file.filename ?? 'upload',
    purpose,
    bytes: file.content.length,
    createdAt: now,
    content,
  };
}

/** A batch file must be JSONL: each non-empty line one JSON object, within the documented size. */
function jsonlProblem(content: string, bytes: number): string | undefined {
  if (bytes > BATCH_FILE_LIMITS.bytes) return `File is too large: ${bytes} bytes, the limit is 200 MB.`;
  const lines = content.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
    } catch {
      return `Invalid file format for Batch API. Line ${index + 1} is not a JSON object.`;
    }
  }
  return undefined;
}

export function fileObject(file: StoredFile) {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: Math.floor(file.createdAt / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    status_details: null,
  };
}

/** "The request input object": one line of a batch input file. */
const inputLineSchema = z.object({
  custom_id: z.string().min(1),
  method: z.literal('POST'),
  url: z.string(),
  body: z.record(z.string(), z.unknown()),
});

type Validation = { lines: BatchLine[]; errors: Array<{ code: string; message: string; line: number }> };

/**
 * Validates a batch's input file as the validating phase does: every line a request input object
 * for the batch's endpoint, custom ids unique, one model per file, at most 50,000 requests.
 */
export function validateBatchFile(content: string, endpoints: readonly string[]): Validation {
  const errors: Validation['errors'] = [];
  const lines: BatchLine[] = [];
  const seen = new Set<string>();
  const models = new Set<unknown>();
  content.split('\n').forEach((text, index) => {
    if (text.trim() === '') return;
    const parsed = inputLineSchema.safeParse(JSON.parse(text));
    const line = index + 1;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      errors.push({ code: 'invalid_request', message: `${issue.path.join('.')}: ${issue.message}`, line });
      return;
    }
    if (!endpoints.includes(parsed.data.url))
      errors.push({
        code: 'invalid_url',
        message: `The URL provided for this request does not match the batch endpoint.`,
        line,
      });
    if (seen.has(parsed.data.custom_id))
      errors.push({
        code: 'duplicate_custom_id',
        message:
          'The custom_id for this request is a duplicate of another request. The custom_id parameter must be unique for each request in a batch.',
        line,
      });
    seen.add(parsed.data.custom_id);
    models.add(parsed.data.body.model);
    lines.push({ customId: parsed.data.custom_id, body: parsed.data.body });
  });
  if (models.size > 1)
    errors.push({
      code: 'mismatched_model',
      message: 'All requests in a batch must use the same model.',
      line: 1,
    });
  if (lines.length > BATCH_FILE_LIMITS.requests)
    errors.push({ code: 'too_many_requests', message: 'A batch may hold at most 50,000 requests.', line: 1 });
  return { lines, errors };
}
