import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type {
  ChatCapabilities,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  EndpointFacts,
} from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { readGgufHeader } from './gguf-header.js';
import { type LlamaCppCalls, LlamaCppModel, type LlamaCppOptions } from './llama-cpp-model.js';
import { LlamaCppProcess } from './llama-cpp-process.js';

export type GgufChatModelOptions = LlamaCppOptions;

/** The file's SHA-256 (streamed): a model is its weights, whatever its file is called. */
async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A GGUF chat model run on this machine by llama.cpp (node-llama-cpp's prebuilt binaries, CPU),
 * in a child process of medbench's (`LlamaCppProcess`): no server, nothing leaves the machine.
 * Greedy at temperature 0; each request starts from an empty context (no history carried over);
 * a prompt that does not fit the context is an error, never shifted or cut.
 */
export class GgufChatModel implements ChatModel {
  readonly provider = 'gguf';
  /** On this machine (a child process): the restricted-data check treats it as such. */
  readonly endpoint = '';
  readonly capabilities: ChatCapabilities = { prefill: 'none', truncatePrompt: false, countTokens: true };
  readonly modelId: string;
  private readonly llama: LlamaCppCalls;

  /** `modelId` names the file and its digest: another file's answers never share a cache entry. */
  private constructor(options: GgufChatModelOptions, digest: string) {
    const path = resolve(options.path);
    this.modelId = `${basename(path)}@sha256:${digest.slice(0, 16)}`;
    const llama = { ...options, path };
    this.llama = LlamaCppProcess.where(llama) ?? new LlamaCppModel(llama);
  }

  static async open(options: GgufChatModelOptions): Promise<GgufChatModel> {
    const path = resolve(options.path);
    if (!existsSync(path) || !statSync(path).isFile())
      throw new MedbenchError({
        code: 'MODEL_FOLDER_INVALID',
        message: `No GGUF model file at ${path}.`,
        hint: 'Give the path of a .gguf file: --model gguf:/path/to/model.gguf.',
      });
    // Before llama.cpp sees it: a damaged header is an error here, not a dead process there.
    readGgufHeader(path);
    return new GgufChatModel(options, await fileDigest(path));
  }

  /** The model's trained context: the most a run may use. */
  probe(): Promise<EndpointFacts> {
    return this.llama.probe();
  }

  /** The prompt's tokens as llama.cpp will see them: the chat template applied, by the model's own vocabulary. */
  countTokens(messages: ChatMessage[]): Promise<number> {
    return this.llama.countTokens(messages);
  }

  generate(request: ChatRequest): Promise<ChatResponse> {
    return this.llama.generate(request);
  }

  dispose(): Promise<void> {
    return this.llama.dispose();
  }
}
