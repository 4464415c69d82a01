import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ChatMessage, ChatRequest, ChatResponse, EndpointFacts } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import { type ErrorFields, rebuiltError } from '../../io/error-fields.js';
import type { LlamaCppCalls, LlamaCppOptions } from './llama-cpp-model.js';

const HOST = new URL('./gguf-host.js', import.meta.url);

/** A call to the host process, or the cancelling of one. */
export type HostCall =
  | { id: number; method: 'probe' }
  | { id: number; method: 'countTokens'; messages: ChatMessage[] }
  | { id: number; method: 'generate'; request: Omit<ChatRequest, 'signal'> }
  | { id: number; method: 'dispose' }
  | { cancel: number };

/** An answer to a call; `loaded` once the model is (the host loads it as it starts). */
export type HostReply =
  | { id: number; value: unknown }
  | { id: number; error: ErrorFields }
  | { loaded: true };

/** The last lines llama.cpp wrote before it stopped: its assertion or exception, usually. */
const STDERR_KEPT = 2_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * llama.cpp in a child process of its own (`gguf-host.js`), started on first use. llama.cpp
 * stops its process on some model files (assertions on shapes or vocabularies that a damaged or
 * unsupported file breaks), and nothing in this process could catch that. Here it stops the
 * child: its calls fail with what llama.cpp printed — while loading, an error about the file;
 * while answering, a retryable one (the next call starts a new child, which loads the model
 * again). `where` gives none when medbench runs from its TypeScript sources (no compiled host):
 * llama.cpp then runs in this process.
 */
export class LlamaCppProcess implements LlamaCppCalls {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private stderr = '';
  private loaded = false;

  private constructor(private readonly options: LlamaCppOptions) {}

  static where(options: LlamaCppOptions): LlamaCppProcess | undefined {
    return existsSync(fileURLToPath(HOST)) ? new LlamaCppProcess(options) : undefined;
  }

  probe(): Promise<EndpointFacts> {
    return this.call({ method: 'probe' }) as Promise<EndpointFacts>;
  }

  countTokens(messages: ChatMessage[]): Promise<number> {
    return this.call({ method: 'countTokens', messages }) as Promise<number>;
  }

  generate(request: ChatRequest): Promise<ChatResponse> {
    const { signal, ...rest } = request;
    return this.call({ method: 'generate', request: rest }, signal) as Promise<ChatResponse>;
  }

  async dispose(): Promise<void> {
    const child = this.child;
    // Nothing to let go of (and no new process to start for it).
    if (!child?.connected) return;
    await this.call({ method: 'dispose' }).catch(() => undefined);
    child.kill();
  }

  private call(call: DistributiveOmit<Exclude<HostCall, { cancel: number }>, 'id'>, signal?: AbortSignal) {
    const child = this.started();
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new MedbenchError({ code: 'ABORTED', message: 'The GGUF generation was cancelled.' }));
        return;
      }
      const cancel = () => child.connected && child.send({ cancel: id } satisfies HostCall);
      signal?.addEventListener('abort', cancel, { once: true });
      const settled = () => {
        signal?.removeEventListener('abort', cancel);
        this.pending.delete(id);
        if (this.pending.size === 0) {
          child.unref();
          child.channel?.unref();
        }
      };
      this.pending.set(id, {
        resolve: (value) => {
          settled();
          resolve(value);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      // While calls are out, the child keeps this process alive (and its end is seen).
      child.ref();
      child.channel?.ref();
      child.send({ ...call, id } as HostCall);
    });
  }

  /** The running child, or a new one. */
  private started(): ChildProcess {
    if (this.child?.connected) return this.child;
    // Gone without its exit seen yet: its calls fail now.
    if (this.child) this.stopped(this.child, this.child.exitCode, this.child.signalCode);
    const child = fork(fileURLToPath(HOST), [JSON.stringify(this.options)], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    this.stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    (child.stderr as Socket | null)?.unref();
    child.unref();
    child.channel?.unref();
    this.loaded = false;
    child.on('message', (reply: HostReply) => {
      if ('loaded' in reply) {
        this.loaded = true;
        return;
      }
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      if ('error' in reply) pending.reject(rebuiltError(reply.error));
      else pending.resolve(reply.value);
    });
    child.on('exit', (code, signal) => this.stopped(child, code, signal));
    // A failed start or send: the child is taken as stopped (its exit, if any, then changes nothing).
    child.on('error', () => this.stopped(child, child.exitCode, child.signalCode));
    return child;
  }

  /** The child ended: its calls fail with what llama.cpp last printed; the next call starts another. */
  private stopped(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    const printed = this.stderr.trim().split('\n').slice(-3).join(' | ');
    const how = signal ? `was stopped by ${signal}` : code === null ? 'ended' : `exited with code ${code}`;
    for (const pending of [...this.pending.values()]) {
      pending.reject(
        new MedbenchError(
          !this.loaded
            ? {
                code: 'MODEL_FOLDER_INVALID',
                message: `llama.cpp ${how} while loading ${this.options.path}${printed ? `: ${printed}` : '.'}`,
                hint: 'The file is damaged, or a model llama.cpp cannot run: download it again (compare its SHA-256 with the one its publisher lists) or try another quantization.',
              }
            : {
                // Retried like a dropped connection: the next call loads the model in a new process.
                code: 'ENDPOINT_DISCONNECTED',
                message: `llama.cpp ${how} while answering${printed ? `: ${printed}` : '.'} A new process loads the model for the next call.`,
                retryable: true,
              },
        ),
      );
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
