import { z } from 'zod';
import { fixture } from '../providers/wire.js';
import {
  BatchEngine,
  type BatchJob,
  type BatchLine,
  ENDED,
  type LineResult,
  unixSeconds,
} from './batch-engine.js';
import { DEFAULT_PRICES } from './billing-ledger.js';
import { type ChatContext, completeChat, openAIError } from './openai-chat.js';
import { fileObject, type StoredFile, uploadedFile, validateBatchFile } from './openai-files.js';
import { type Exchange, listen, newId, parseJson, sendJson, sendText } from './platform-basics.js';
import type { Platform, PlatformBaseOptions, PlatformSetup } from './platform-setup.js';
import { firstIssue, platformSetup } from './platform-setup.js';
import { AutomaticPrefixCache } from './prefix-cache.js';

export interface OpenAIPlatformOptions extends PlatformBaseOptions {
  /** 'azure': routes under /openai/ with api-version, deployments for models, Azure's errors. */
  flavour?: 'openai' | 'azure';
  /** Azure: deployment name → the model it serves (unknown deployments answer 404). */
  deployments?: Record<string, string>;
  /** How long an unused cached prefix lives (the guide: 5–10 minutes of inactivity; default 5). */
  cacheLifetimeMs?: number;
}

export interface OpenAIPlatform extends Platform {
  files: Map<string, StoredFile>;
}

const createBatchSchema = z.object({
  input_file_id: z.string(),
  endpoint: z.string(),
  completion_window: z.literal('24h'),
  // Metadata: at most 16 pairs, keys up to 64 characters, values up to 512.
  metadata: z
    .record(z.string().max(64), z.string().max(512))
    .refine((pairs) => Object.keys(pairs).length <= 16, 'metadata holds at most 16 key-value pairs')
    .nullish(),
});

const DAY_MS = 24 * 3_600_000;

interface State extends OpenAIPlatform, PlatformSetup {
  chat: ChatContext;
  azure: boolean;
  /** Azure: the deployments the resource has. */
  deployments: Record<string, string>;
}

/**
 * A local stand-in for OpenAI's platform (or Azure OpenAI's, `flavour: 'azure'`): chat completions
 * with automatic prompt caching (prompts of 1024+ tokens, hits in 128-token steps, routed by model
 * and prompt_cache_key) reported in usage.prompt_tokens_details.cached_tokens; the Files API and
 * the Batch API lifecycle; a billing ledger of every answered request.
 */
export async function startOpenAIPlatform(options: OpenAIPlatformOptions = {}): Promise<OpenAIPlatform> {
  const azure = options.flavour === 'azure';
  const setup = platformSetup(options, DEFAULT_PRICES[azure ? 'azure-openai' : 'openai']);
  const deployments = options.deployments ?? {};
  const chat: ChatContext = {
    ...setup,
    flavour: azure ? 'azure-openai' : 'openai-compatible',
    cache: new AutomaticPrefixCache(
      { minimumTokens: 1024, increment: 128, lifetimeMs: options.cacheLifetimeMs ?? 5 * 60_000 },
      setup.clock,
      setup.countTokens,
    ),
    modelOf: (requested) => (azure ? (deployments[requested] ?? requested) : requested),
  };
  const batches = new BatchEngine({
    ...setup,
    answer: (line) => answerLine(chat, line),
    validate: (job) => job.errors,
    unprocessed: (line, why) => ({
      customId: line.customId,
      outcome: why,
      status: 0,
      body: {
        code: why === 'expired' ? 'batch_expired' : 'batch_cancelled',
        message:
          why === 'expired'
            ? 'This request could not be executed before the completion window expired.'
            : 'This request was not executed because the batch was cancelled.',
      },
    }),
  });
  const server = await listen((exchange) => route(state, exchange));
  const state: State = {
    ...setup,
    ...server,
    chat,
    azure,
    deployments,
    batches,
    files: new Map(),
    cutNextDownload: false,
  };
  return state;
}

function answerLine(chat: ChatContext, line: BatchLine): LineResult {
  const { status, body } = completeChat(chat, line.body, { mode: 'batch', customId: line.customId });
  return { customId: line.customId, outcome: status === 200 ? 'succeeded' : 'errored', status, body };
}

function fail(state: State, exchange: Exchange, status: number, message?: string, param?: string) {
  sendJson(exchange.response, status, openAIError(state.chat.flavour, status, message, param));
}

/** The path below the API root, or undefined when the request is not addressed to the API. */
function apiPath(state: State, url: URL): string | undefined {
  if (!state.azure) return url.pathname.startsWith('/v1/') ? url.pathname.slice(3) : undefined;
  if (!url.pathname.startsWith('/openai/') || !url.searchParams.has('api-version')) return undefined;
  return url.pathname.slice('/openai'.length);
}

function route(state: State, exchange: Exchange) {
  const { authorization } = exchange.headers;
  const keyed = state.azure
    ? exchange.headers['api-key'] || authorization
    : authorization?.startsWith('Bearer ');
  if (!keyed) return fail(state, exchange, 401);
  const path = apiPath(state, exchange.url);
  if (path === undefined) {
    if (state.azure) sendJson(exchange.response, 404, fixture('azure-openai', 'resource-not-found'));
    else fail(state, exchange, 404, `Invalid URL (${exchange.method} ${exchange.url.pathname})`);
    return;
  }
  const key = `${exchange.method} ${path}`;
  const chat = /^POST \/(?:deployments\/([^/]+)\/)?chat\/completions$/.exec(key);
  if (chat) return syncChat(state, exchange, chat[1]);
  const file = /^GET \/files\/([^/]+)(\/content)?$/.exec(key);
  if (file) return getFile(state, exchange, file[1]!, file[2] !== undefined);
  const deleted = /^DELETE \/files\/([^/]+)$/.exec(key);
  if (deleted) return deleteFile(state, exchange, deleted[1]!);
  const batch = /^(GET|POST) \/batches\/([^/]+)(\/cancel)?$/.exec(key);
  if (batch && (batch[1] === 'GET') === (batch[3] === undefined))
    return batchById(state, exchange, batch[2]!, batch[3] !== undefined);
  if (key === 'POST /files') return uploadFile(state, exchange);
  if (key === 'POST /batches') return createBatch(state, exchange);
  if (key === 'GET /batches') return listBatches(state, exchange);
  fail(state, exchange, 404, `Invalid URL (${exchange.method} ${exchange.url.pathname})`);
}

function syncChat(state: State, exchange: Exchange, deployment: string | undefined) {
  if (state.azure !== (deployment !== undefined)) return fail(state, exchange, 404);
  if (deployment !== undefined && !(deployment in state.deployments))
    return sendJson(exchange.response, 404, {
      error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' },
    });
  const body = parseJson(exchange.raw);
  if (body === undefined)
    return fail(state, exchange, 400, 'We could not parse the JSON body of your request.');
  state.received.syncRequests += 1;
  const request =
    deployment !== undefined && typeof body === 'object' ? { ...body, model: deployment } : body;
  const answer = completeChat(state.chat, request, { mode: 'sync' });
  sendJson(exchange.response, answer.status, answer.body);
}

function uploadFile(state: State, exchange: Exchange) {
  const file = uploadedFile(exchange, state.clock.now());
  if ('param' in file) return fail(state, exchange, 400, file.message, file.param);
  state.files.set(file.id, file);
  state.received.files += 1;
  sendJson(exchange.response, 200, fileObject(file));
}

function deleteFile(state: State, exchange: Exchange, id: string) {
  if (!state.files.delete(id)) return fail(state, exchange, 404, `No such File object: ${id}`, 'id');
  sendJson(exchange.response, 200, { id, object: 'file', deleted: true });
}

function getFile(state: State, exchange: Exchange, id: string, content: boolean) {
  const file = state.files.get(id);
  if (!file) return fail(state, exchange, 404, `No such File object: ${id}`, 'id');
  if (!content) return sendJson(exchange.response, 200, fileObject(file));
  state.received.resultDownloads += 1;
  const cut = state.cutNextDownload;
  state.cutNextDownload = false;
  sendText(exchange, file.content, 'application/octet-stream', cut);
}

function batchEndpoints(state: State): string[] {
  return state.azure ? ['/chat/completions', '/v1/chat/completions'] : ['/v1/chat/completions'];
}

function createBatch(state: State, exchange: Exchange) {
  const parsed = createBatchSchema.safeParse(parseJson(exchange.raw));
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return fail(state, exchange, 400, issue.message, issue.path);
  }
  const { input_file_id: inputFileId, endpoint, metadata } = parsed.data;
  if (!batchEndpoints(state).includes(endpoint))
    return fail(state, exchange, 400, `Invalid value: '${endpoint}'.`, 'endpoint');
  const file = state.files.get(inputFileId);
  if (!file) return fail(state, exchange, 404, `No such File object: ${inputFileId}`, 'input_file_id');
  if (file.purpose !== 'batch')
    return fail(
      state,
      exchange,
      400,
      `File ${inputFileId} was not uploaded with purpose 'batch'.`,
      'input_file_id',
    );
  const { lines, errors } = validateBatchFile(file.content, batchEndpoints(state));
  const deployment = lines[0]?.body.model;
  if (state.azure && lines.length > 0 && !(typeof deployment === 'string' && deployment in state.deployments))
    errors.push({
      code: 'model_not_found',
      message: `The deployment ${String(deployment)} does not exist.`,
      line: 1,
    });
  const job = state.batches.create(
    newId('batch_'),
    lines,
    { endpoint, metadata: metadata ?? null, inputFileId },
    'validating',
  );
  job.errors = errors;
  sendJson(exchange.response, 200, batchObject(state, job));
}

function batchById(state: State, exchange: Exchange, id: string, cancel: boolean) {
  const job = cancel ? state.batches.cancel(id) : state.batches.poll(id);
  if (!job) return fail(state, exchange, 404, `No batch found with id '${id}'.`, 'batch_id');
  sendJson(exchange.response, 200, batchObject(state, job));
}

function listBatches(state: State, exchange: Exchange) {
  const all = [...state.batches.jobs.values()].reverse();
  const after = exchange.url.searchParams.get('after');
  const limit = Number(exchange.url.searchParams.get('limit') ?? 20);
  const from = after === null ? 0 : all.findIndex((job) => job.id === after) + 1;
  const page = all.slice(from, from + limit);
  sendJson(exchange.response, 200, {
    object: 'list',
    data: page.map((job) => batchObject(state, job)),
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: from + limit < all.length,
  });
}

/** Writes an ended batch's output and error files once: each line {id, custom_id, response, error}. */
function resultFiles(state: State, job: BatchJob) {
  if (!ENDED.includes(job.phase) || job.extra.filesWritten) return;
  job.extra.filesWritten = true;
  const output: string[] = [];
  const errors: string[] = [];
  for (const line of job.lines) {
    const result = job.results.get(line.customId);
    if (!result) continue;
    const text = JSON.stringify({
      id: newId('batch_req_'),
      custom_id: line.customId,
      response:
        result.status === 0
          ? null
          : { status_code: result.status, request_id: newId('req_'), body: result.body },
      error: result.status === 0 ? result.body : null,
    });
    (result.status === 200 ? output : errors).push(text);
  }
  const store = (lines: string[], name: string) => {
    if (lines.length === 0) return null;
    const content = lines.map((line) => `${line}\n`).join('');
    const file: StoredFile = {
      id: newId('file-'),
      filename: `${job.id}_${name}.jsonl`,
      purpose: 'batch_output',
      bytes: Buffer.byteLength(content),
      createdAt: state.clock.now(),
      content,
    };
    state.files.set(file.id, file);
    return file.id;
  };
  job.extra.outputFileId = store(output, 'output');
  job.extra.errorFileId = store(errors, 'error');
}

function batchObject(state: State, job: BatchJob) {
  resultFiles(state, job);
  const results = [...job.results.values()];
  const completed = results.filter((result) => result.status === 200).length;
  return {
    id: job.id,
    object: 'batch',
    endpoint: job.extra.endpoint,
    errors:
      job.errors.length > 0
        ? { object: 'list', data: job.errors.map((error) => ({ ...error, param: null })) }
        : null,
    input_file_id: job.extra.inputFileId,
    completion_window: '24h',
    status: job.phase,
    output_file_id: job.extra.outputFileId ?? null,
    error_file_id: job.extra.errorFileId ?? null,
    created_at: unixSeconds(job.at.created),
    in_progress_at: unixSeconds(job.at.in_progress),
    expires_at: unixSeconds(job.at.created! + DAY_MS),
    finalizing_at: unixSeconds(job.at.finalizing),
    completed_at: unixSeconds(job.at.completed),
    failed_at: unixSeconds(job.at.failed),
    expired_at: unixSeconds(job.at.expired),
    cancelling_at: unixSeconds(job.at.cancelling),
    cancelled_at: unixSeconds(job.at.cancelled),
    request_counts: { total: job.lines.length, completed, failed: results.length - completed },
    metadata: job.extra.metadata,
  };
}
