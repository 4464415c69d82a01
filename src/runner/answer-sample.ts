import { answerWithoutThinking } from '../core/answer-text.js';
import type { ChatMessage, ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import { GZIP_THRESHOLD_CHARS } from '../store/prepared-prompt.js';
import { type CachedResponse, type PreparedPrompt, preparePromptAsync } from '../store/store.js';
import { priceAnswer } from './answer-price.js';
import { cachedResponse } from './cached-response.js';
import type { ModelBinding } from './model-binding.js';
import { resultRecord } from './result-columns.js';
import { retrying, withRetry } from './retry.js';
import { giveUp, writeFailure } from './sample-failure.js';
import { type SampleRequest, sampleRequest } from './sample-request.js';
import type { SampleRun } from './sample-run.js';
import type { SlotTurn } from './slot-turn.js';

export { errorKind, type RetryEvent, type RunProgress, type SampleRun } from './sample-run.js';

/**
 * A result that costs nothing to redo (too_long, an error) waits for a group commit: the sample
 * counts as done at once, as a kill before that commit only makes the next run redo it for free.
 */
const COMMITTED_LATER = { committed: Promise.resolve(true) };

/** An answer to score: from the cache, or fresh (handed to the response cache). */
interface Answer {
  response: CachedResponse;
  fresh: boolean;
  attempts: number;
  prompt: string | PreparedPrompt;
  /** When the request could be sent (its slot's turn came): a fresh answer's latency runs from there. */
  sentAt?: number;
  /** Answered by a provider batch of this run: paid by this run, at the batch price. */
  batched?: boolean;
}

/**
 * Asks the model, retrying what can be retried; commits a fresh answer to the response cache the
 * moment it arrives. `undefined`: no answer (an error stored, or the sample left for the next run).
 */
async function askModel(
  context: SampleRun,
  sample: Sample,
  endpoint: ChatModel,
  request: SampleRequest,
  started: number,
  turn: SlotTurn | undefined,
): Promise<Answer | 'left' | 'failed'> {
  const deadline = context.sampleTimeoutMs !== undefined ? started + context.sampleTimeoutMs : undefined;
  const { control } = context;
  const found = await context.cache.findOrClaim(endpoint, request, {
    deadline,
    signal: control.waitsEnd.signal,
    // Its slot busy, the request waits for that one's answer: its claim can share a transaction.
    canWait: turn?.busy ?? false,
  });
  if (!found) return 'left';
  if (found.cached) return { response: found.cached, fresh: false, attempts: 0, prompt: sample.prompt };
  // The slot's turn: its other worker's request may be out still (this one, prepared meanwhile,
  // is sent the moment that one is answered).
  const asked = Date.now();
  const handOn = (await turn?.take()) ?? (() => {});
  // The wait for the slot is not the sample's: its deadline moves by it, its latency starts after.
  const waited = Date.now() - asked;
  try {
    // Stopped while waiting: the claim is let go and the next run sends it. Its endpoint began to
    // rest meanwhile: another endpoint takes it.
    if (control.stopped || control.hardStop.signal.aborted || context.passOn?.(endpoint, sample)) {
      found.release();
      return 'left';
    }
    // A sample with the same request, sent while this one waited, has its answer now.
    const meanwhile = turn ? context.cache.answeredMeanwhile(endpoint, request) : undefined;
    if (meanwhile) {
      found.release();
      return { response: meanwhile, fresh: false, attempts: 0, prompt: sample.prompt };
    }
    const bound = context.budget?.bound(request) ?? 0;
    if (context.budget && !context.budget.reserve(bound)) {
      // Held back: the run stops as a graceful stop does, and a re-run with a higher cap goes on.
      found.release();
      control.stop();
      return 'left';
    }
    try {
      return await sendAndKeep(context, {
        sample,
        endpoint,
        request,
        release: found.release,
        deadline: deadline === undefined ? undefined : deadline + waited,
        started: started + waited,
        handOn,
      });
    } finally {
      context.budget?.release(bound);
    }
  } finally {
    handOn();
  }
}

/** Sends a request (with retries) and hands a fresh answer back uncommitted; see `askModel`. */
async function sendAndKeep(
  context: SampleRun,
  send: {
    sample: Sample;
    endpoint: ChatModel;
    request: SampleRequest;
    release: () => void;
    deadline: number | undefined;
    started: number;
    /** Hands the slot on once the request is answered or given up. */
    handOn: () => void;
  },
): Promise<Answer | 'left' | 'failed'> {
  const { control, model } = context;
  const { sample, endpoint, request, release, deadline, started, handOn } = send;
  // A long prompt is hashed and compressed now, off the event loop, so the commit when the answer
  // arrives is only the inserts; a short one is hashed where it is written.
  const prompt =
    sample.prompt.length < GZIP_THRESHOLD_CHARS ? sample.prompt : await preparePromptAsync(sample.prompt);
  const hint = context.promptCache?.get(sample);
  // Its leading messages held in an explicit cache (Gemini's): the request names it.
  const held = await context.explicitCaches?.use(endpoint, sample);
  const generation = {
    messages: request.messages,
    parameters: request.parameters,
    ...(request.truncatePromptTokens !== undefined
      ? { truncatePromptTokens: request.truncatePromptTokens }
      : {}),
    // Where its prefix is shared with other samples of the run; never part of the cache key.
    ...(hint ? { promptCache: hint } : {}),
    ...(held ? { explicitCache: held } : {}),
  };
  const outcome = await retrying({
    policy: context.retry,
    signal: control.waitsEnd.signal,
    ...(deadline !== undefined ? { deadline } : {}),
    attempt: (_, timeLeftMs) =>
      control.generate(endpoint, generation, Math.min(context.timeoutMs, timeLeftMs)),
    onRetry: (error, delayMs, attemptNumber) =>
      context.onRetry?.({ sampleId: sample.id, error, delayMs, attempt: attemptNumber + 1 }),
  });
  // Answered or given up: the slot's other worker sends its request now.
  handOn();
  // Every try counts, those on endpoints that failed before this one included.
  const attempts = (context.triedElsewhere?.get(sample.id) ?? 0) + outcome.attempts;
  context.triedElsewhere?.delete(sample.id);
  if (!outcome.ok) {
    release();
    return giveUp(context, send, { error: outcome.error, stopped: outcome.stopped, attempts });
  }
  context.served?.(endpoint);
  const response = cachedResponse(outcome.value, {
    promptTokens: request.promptTokens,
    model,
    scrubSecrets: context.scrubSecrets,
  });
  const entry = context.redactText
    ? undefined
    : {
        cacheKey: context.cache.keyFor(endpoint, request),
        provider: model.provider,
        modelId: model.modelId,
        response,
      };
  if (entry) context.cache.remember(entry.cacheKey);
  // The budget counts the list price: an upper bound of what was paid (see CostBudget).
  context.budget?.spend(priceOf(model, response)?.listCost ?? 0);
  // Handed to the store now; the claim is let go once the answer is committed, where another
  // process finds it. The slot goes on meanwhile.
  void context.writer.keepAnswer(entry).finally(release);
  return { response, fresh: true, attempts, prompt, sentAt: started };
}

/** What an answer cost (a batch's at the batch price) and costs at list price; undefined without prices (unknown, not zero). */
function priceOf(model: ModelBinding, response: CachedResponse, batch = false) {
  return model.prices ? priceAnswer(model.prices, response, { batch }) : undefined;
}

/** `--count-tokens endpoint`: the endpoint's own count, retried as requests are; else undefined. */
function endpointCounter(
  context: SampleRun,
  endpoint: ChatModel,
): ((messages: ChatMessage[]) => Promise<number>) | undefined {
  const count = endpoint.countTokens?.bind(endpoint);
  if (context.model.countTokens !== 'endpoint' || !count) return undefined;
  return async (messages) =>
    (
      await withRetry({
        policy: context.retry,
        signal: context.control.waitsEnd.signal,
        attempt: () =>
          count(
            messages,
            AbortSignal.any([AbortSignal.timeout(context.timeoutMs), context.control.hardStop.signal]),
          ),
      })
    ).value;
}

/**
 * Runs one sample on one endpoint: too_long gating, the cache, the request, scoring, the write.
 * Undefined when it was left for the next run (stopped, or a fatal error); otherwise the commit of
 * its result, which resolves true once the result is in the store (false if the write failed).
 */
export async function answerSample(
  context: SampleRun,
  sample: Sample,
  endpoint: ChatModel,
  /** The slot's turns, shared with another worker (see SlotTurn). */
  turn?: SlotTurn,
): Promise<{ committed: Promise<boolean> } | undefined> {
  const { model, progress } = context;
  let request: SampleRequest;
  try {
    request = await sampleRequest(sample, endpoint, model, endpointCounter(context, endpoint));
  } catch (caught) {
    // The count route failed after its retries: the run cannot judge too_long as asked.
    if (!MedbenchError.is(caught)) throw caught;
    // Stopped meanwhile: the sample is left for the next run.
    if (context.control.stopped || caught.code === 'ABORTED') return undefined;
    context.fatal ??= caught;
    context.control.hardStop.abort();
    return undefined;
  }
  if (request.tooLong !== undefined) {
    writeFailure(context, sample, {
      promptTokens: request.promptTokens,
      status: 'too_long',
      error: request.tooLong,
      latencyMs: null,
      attempts: 0,
    });
    progress.tooLong++;
    return COMMITTED_LATER;
  }
  const started = Date.now();
  const answer = await askModel(context, sample, endpoint, request, started, turn);
  if (answer === 'left') return undefined;
  if (answer === 'failed') return COMMITTED_LATER;
  if (!answer.fresh) {
    // A batch of this run answered it: paid by this run (at the batch price), once.
    const batched = context.batchAnswers?.delete(context.cache.keyFor(endpoint, request)) === true;
    // Sent once, in the batch: a sent answer in the usage table, not a cache hit.
    const attempts = batched ? 1 : answer.attempts;
    return {
      committed: scoreAndWrite(context, sample, request, { ...answer, fresh: batched, batched, attempts }, 0),
    };
  }
  const latencyMs = Date.now() - (answer.sentAt ?? started);
  // A fresh answer is on its way to the store already: the slot sends its next request first,
  // and this one is scored and written right after, once this turn's requests are out.
  return {
    committed: new Promise<boolean>((resolve, reject) =>
      setImmediate(() => {
        try {
          resolve(scoreAndWrite(context, sample, request, answer, latencyMs));
        } catch (error) {
          reject(error);
        }
      }),
    ),
  };
}

/** Scores an answer and writes its result; resolves true once the result is committed. */
function scoreAndWrite(
  context: SampleRun,
  sample: Sample,
  request: SampleRequest,
  answer: Answer,
  latencyMs: number,
): Promise<boolean> {
  const { model, progress } = context;
  const { response, fresh } = answer;
  // A cached answer cost nothing this time: neither paid nor at list price.
  const price = fresh ? priceOf(model, response, answer.batched) : model.prices && { cost: 0, listCost: 0 };
  // A reasoning model's thinking in the output is not its answer: scored without it.
  const scored = context.tasks[sample.task]!.score({
    sample,
    rawOutput: answerWithoutThinking(response.text),
    mode: context.run.scoringMode,
  });
  const written = context.writer.write(
    resultRecord({
      runId: context.run.id,
      sample,
      prompt: answer.prompt,
      promptTokens: request.promptTokens,
      outcome: {
        status: scored.status,
        rawOutput: response.text,
        parsed: scored.parsed,
        scores: scored.scores,
      },
      usage: {
        inputTokens: response.inputTokens,
        outputTokens: response.outputTokens,
        reasoningTokens: response.reasoningTokens ?? null,
        // A cached answer keeps the cache figures it was stored with.
        cachedInputTokens: response.cachedInputTokens ?? null,
        cacheWriteTokens: response.cacheWriteTokens ?? null,
        // Without prices the cost is unknown, not zero.
        cost: price?.cost ?? null,
        listCost: price?.listCost ?? null,
        latencyMs,
        attempts: answer.attempts,
        cacheHit: !fresh,
        error: null,
      },
    }),
  );
  if (fresh) {
    progress.inputTokens += response.inputTokens ?? 0;
    progress.outputTokens += response.outputTokens ?? 0;
    if (price) progress.cost = (progress.cost ?? 0) + price.cost;
  } else progress.cached++;
  return written;
}
