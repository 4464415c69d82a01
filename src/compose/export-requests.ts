import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChatModel } from '../core/chat-model.js';
import { fileError, MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { checkSamples } from '../runner/run-samples.js';
import { type Shard, samplesOfShard } from '../runner/shard.js';
import { type ExportedRequest, Store } from '../store/store.js';
import { resolveHome, storePathIn } from './home.js';
import { pendingRequests } from './pending-requests.js';
import { checkRestrictedData } from './restricted-data.js';
import type { ModelWork, RunPlan } from './run-suite.js';

/** The file formats `export requests` writes. */
export const REQUEST_FORMATS = ['openai-batch'] as const;

/** Where `exportRequests` writes: the JSONL file, the home of the store, this machine's share. */
export interface ExportRequestsOptions {
  home?: string;
  /** The JSONL file to write. */
  out: string;
  /** This machine's share of the run (as `run --shard`). */
  shard?: Shard;
}

/** What `exportRequests` wrote, and why the other samples were left out. */
export interface ExportSummary {
  /** Lines written: one per distinct request. */
  written: number;
  /** Samples of the run (of this shard). */
  samples: number;
  /** Samples the run has a result for already. */
  alreadyDone: number;
  /** Samples whose answer the response cache holds (the run takes it from there). */
  cached: number;
  /** Samples beyond the model's window: the run records them too_long without a request. */
  tooLong: number;
  /** Samples whose request another sample's line carries (one answer serves both). */
  shared: number;
}

/**
 * Every request a run would send, as OpenAI batch JSONL (`{"custom_id", "method", "url",
 * "body"}`), keyed by its response cache key, without sending anything: the file an engine
 * (`vllm run-batch`, Ray Data LLM, LiteLLM's batch endpoint) answers, and `importResponses`
 * takes back into the cache, after which the run answers every sample from there. Samples the
 * run has done, whose answer is cached, or that are too long for the window are left out; each
 * request written is recorded in the store, so that only answers to these are imported.
 */
export async function exportRequests(plan: RunPlan, options: ExportRequestsOptions): Promise<ExportSummary> {
  try {
    const work = exportableWork(plan);
    const endpoint = batchEndpoint(work.model);
    checkRestrictedData(work.model, work.restricted);
    const store = new Store(storePathIn(resolveHome(options.home)));
    try {
      const share = samplesOfShard(plan.samples, options.shard);
      const finished = store.getRun(plan.run.id) ? store.finishedSampleIds(plan.run.id) : new Set<string>();
      const pending = share.filter((sample) => !finished.has(sample.id));
      checkSamples(pending, work.tasks, plan.run.suite);
      const summary: ExportSummary = {
        written: 0,
        samples: share.length,
        alreadyDone: share.length - pending.length,
        cached: 0,
        tooLong: 0,
        shared: 0,
      };
      const { requests, counts } = await pendingRequests(pending, { model: work.model, endpoint, store });
      Object.assign(summary, counts);
      const exported: ExportedRequest[] = [];
      const file = new LineFile(options.out);
      try {
        for (const { cacheKey, promptTokens, request } of requests) {
          const batch = endpoint.batchRequest(request);
          file.write(JSON.stringify({ custom_id: cacheKey, method: 'POST', ...batch }));
          exported.push({
            cacheKey,
            provider: work.model.provider,
            modelId: work.model.modelId,
            url: batch.url,
            promptTokens,
            runId: plan.run.id,
          });
        }
        file.finish();
      } finally {
        file.abandon();
      }
      summary.written = exported.length;
      store.exportedRequests.record(exported);
      return summary;
    } finally {
      store.close();
    }
  } finally {
    await plan.close?.();
  }
}

/** The plan's chat model work; a computed run (a baseline, a retriever) sends no requests. */
function exportableWork(plan: RunPlan): ModelWork {
  if (plan.work.kind === 'model') return plan.work;
  throw new MedbenchError({
    code: 'USAGE',
    message: `The run of ${plan.run.label} is not answered by a chat model (a baseline, a retriever or an embedding model computes it): it has no chat requests to export.`,
    hint: 'Export the requests of a chat model run (--model names a chat model), and run the others as they are.',
  });
}

/** The endpoint whose requests the file carries (and whose cache keys name them). */
function batchEndpoint(model: ModelBinding): ChatModel & Required<Pick<ChatModel, 'batchRequest'>> {
  if (model.countTokens === 'endpoint')
    throw new MedbenchError({
      code: 'USAGE',
      message:
        "export requests judges too_long by the model's tokenizer; --count-tokens endpoint would ask the server for every prompt, and the run after the import would ask it again.",
      hint: 'Leave out --count-tokens endpoint (here and in the run that follows the import).',
    });
  const endpoint = model.endpoints[0]!.model;
  if (endpoint.batchRequest) return endpoint as ChatModel & Required<Pick<ChatModel, 'batchRequest'>>;
  throw new MedbenchError({
    code: 'USAGE',
    message: `${model.label} (${model.provider}${endpoint.provider !== model.provider ? `, ${endpoint.provider}` : ''}) has no OpenAI batch form: export requests writes OpenAI chat completion requests.`,
    hint: 'Name the model as an OpenAI-style chat endpoint (openai-compatible:<model>@<base URL>, openai:<model>, or a config entry with one of those providers, without --completions).',
  });
}

/** A JSONL file written line by line beside its place, and renamed there only once whole. */
class LineFile {
  private readonly target: string;
  private readonly partial: string;
  private descriptor: number | undefined;

  constructor(private readonly path: string) {
    this.target = resolve(path);
    this.partial = `${this.target}.partial`;
    try {
      mkdirSync(dirname(this.target), { recursive: true });
      this.descriptor = openSync(this.partial, 'w');
    } catch (error) {
      throw fileError(error, { path, action: 'write' });
    }
  }

  write(line: string): void {
    try {
      writeSync(this.descriptor!, `${line}\n`);
    } catch (error) {
      throw fileError(error, { path: this.path, action: 'write' });
    }
  }

  finish(): void {
    try {
      closeSync(this.descriptor!);
      this.descriptor = undefined;
      renameSync(this.partial, this.target);
    } catch (error) {
      throw fileError(error, { path: this.path, action: 'write' });
    }
  }

  /** Left unfinished (an error): the partial file goes. */
  abandon(): void {
    if (this.descriptor === undefined) return;
    closeSync(this.descriptor);
    this.descriptor = undefined;
    rmSync(this.partial, { force: true });
  }
}
