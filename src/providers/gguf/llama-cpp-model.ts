import type { ChatHistoryItem, Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import type { ChatMessage, ChatRequest, ChatResponse, EndpointFacts } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { threadsWanted } from '../../io/worker-pool.js';

export interface LlamaCppOptions {
  /** The model file (its header already checked: `readGgufHeader`). */
  path: string;
  /** The context to allocate (the run's window); default the model's trained context. */
  contextWindow?: number;
  /** Requests answered at once (context sequences). */
  sequences?: number;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
}

/** The calls a GGUF chat model makes of llama.cpp, wherever llama.cpp runs (`LlamaCppModel`, `LlamaCppProcess`). */
export interface LlamaCppCalls {
  probe(): Promise<EndpointFacts>;
  countTokens(messages: ChatMessage[]): Promise<number>;
  generate(request: ChatRequest): Promise<ChatResponse>;
  dispose(): Promise<void>;
}

/**
 * A GGUF model loaded by llama.cpp in this process (node-llama-cpp's prebuilt binaries, CPU), on
 * first use. Greedy at temperature 0; each request starts from an empty context (no history
 * carried over); a prompt that does not fit the context is an error, never shifted or cut.
 */
export class LlamaCppModel implements LlamaCppCalls {
  private loaded: Promise<Loaded> | undefined;
  private readonly free: LlamaContextSequence[] = [];
  private readonly waiting: Array<(sequence: LlamaContextSequence) => void> = [];

  constructor(private readonly options: LlamaCppOptions) {}

  private load(): Promise<Loaded> {
    this.loaded ??= (async () => {
      const { getLlama } = await loadOptionalPart(OPTIONAL_PARTS.gguf, () => import('node-llama-cpp'));
      const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false });
      let model: LlamaModel;
      try {
        model = await llama.loadModel({ modelPath: this.options.path });
      } catch (error) {
        throw new MedbenchError({
          code: 'MODEL_FOLDER_INVALID',
          message: `llama.cpp cannot load ${this.options.path}: ${(error as Error).message}`,
          cause: error,
        });
      }
      const context = await model.createContext({
        contextSize: this.options.contextWindow ?? model.trainContextSize,
        sequences: this.options.sequences ?? 1,
        // MEDBENCH_THREADS as for medbench's own passes (llama.cpp's threads spin: on a busy
        // machine fewer can be faster), else one per core.
        threads: threadsWanted(),
      });
      for (let index = 0; index < context.totalSequences; index++) this.free.push(context.getSequence());
      return { llama, model, context };
    })();
    return this.loaded;
  }

  private async acquire(): Promise<LlamaContextSequence> {
    await this.load();
    const sequence = this.free.pop();
    if (sequence) return sequence;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.free.push(sequence);
  }

  /** The model's trained context: the most a run may use. */
  async probe(): Promise<EndpointFacts> {
    const { model } = await this.load();
    return { maxContextTokens: model.trainContextSize };
  }

  /** The prompt's tokens as llama.cpp will see them: the chat template applied, by the model's own vocabulary. */
  async countTokens(messages: ChatMessage[]): Promise<number> {
    const { model } = await this.load();
    const { LlamaChatSession } = await loadOptionalPart(OPTIONAL_PARTS.gguf, () => import('node-llama-cpp'));
    const sequence = await this.acquire();
    try {
      const session = new LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
      const { contextText } = session.chatWrapper.generateContextState({
        chatHistory: historyOf(messages, true),
      });
      session.dispose({ disposeSequence: false });
      return contextText.tokenize(model.tokenizer).length;
    } finally {
      this.release(sequence);
    }
  }

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const { model, context } = await this.load();
    const { LlamaChatSession } = await loadOptionalPart(OPTIONAL_PARTS.gguf, () => import('node-llama-cpp'));
    const last = request.messages.at(-1);
    if (last?.role !== 'user')
      throw new MedbenchError({
        code: 'USAGE',
        message: 'A GGUF chat model answers a conversation that ends with the user.',
      });
    const sequence = await this.acquire();
    try {
      await sequence.clearHistory();
      const session = new LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
      const history = historyOf(request.messages.slice(0, -1), false);
      const prompt = session.chatWrapper
        .generateContextState({ chatHistory: historyOf(request.messages, true) })
        .contextText.tokenize(model.tokenizer).length;
      if (prompt + request.parameters.maxOutputTokens > context.contextSize)
        throw new MedbenchError({
          code: 'ENDPOINT_HTTP',
          message: `The prompt has ${prompt} tokens; with ${request.parameters.maxOutputTokens} to generate it does not fit the ${context.contextSize}-token context (it is never cut).`,
          hint: 'Give the run this window (--context-window) so that too_long is decided before sending.',
          status: 400,
        });
      session.setChatHistory(history);
      const before = sequence.tokenMeter.usedOutputTokens;
      const text = await session.prompt(last.content, {
        maxTokens: request.parameters.maxOutputTokens,
        temperature: request.parameters.temperature,
        ...(request.parameters.topP !== undefined ? { topP: request.parameters.topP } : {}),
        ...(request.parameters.seed !== undefined ? { seed: request.parameters.seed } : {}),
        ...(request.parameters.stop !== undefined ? { customStopTriggers: request.parameters.stop } : {}),
        ...(request.signal ? { signal: request.signal, stopOnAbortSignal: false } : {}),
      });
      const outputTokens = sequence.tokenMeter.usedOutputTokens - before;
      session.dispose({ disposeSequence: false });
      return { text, usage: { inputTokens: prompt, outputTokens }, finishReason: undefined };
    } catch (caught) {
      if (MedbenchError.is(caught)) throw caught;
      if (request.signal?.aborted)
        throw new MedbenchError({
          code: 'ABORTED',
          message: 'The GGUF generation was cancelled.',
          cause: caught,
        });
      throw new MedbenchError({
        code: 'ENDPOINT_BAD_RESPONSE',
        message: `llama.cpp: ${(caught as Error).message}`,
        cause: caught,
      });
    } finally {
      await sequence.clearHistory();
      this.release(sequence);
    }
  }

  async dispose(): Promise<void> {
    if (!this.loaded) return;
    const { llama, model, context } = await this.loaded;
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
}

/** The conversation as node-llama-cpp's chat history (with an empty model turn after a last user turn when asked). */
function historyOf(messages: readonly ChatMessage[], openAnswer: boolean): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = messages.map((message) =>
    message.role === 'system'
      ? { type: 'system', text: message.content }
      : message.role === 'user'
        ? { type: 'user', text: message.content }
        : { type: 'model', response: [message.content] },
  );
  if (openAnswer && messages.at(-1)?.role === 'user') items.push({ type: 'model', response: [] });
  return items;
}
