import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../loopback-server.js';

/** The platforms' time, in milliseconds: a test moves it to expire caches and batches without waiting. */
export interface Clock {
  now(): number;
}

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

/** Tokens in a text; the bench passes a real tokenizer. */
export type TokenCounter = (text: string) => number;

/** The default count: a token per 4 characters, rounded up. */
export const quarterCharacters: TokenCounter = (text) => Math.ceil(text.length / 4);

/** What a platform answers to one request: a text, or an error status in the provider's shape. */
export type PlatformAnswer = string | { status: number };

/** The answer to a request as a function of its prompt text (the serialized conversation) and body. */
export type AnswerFunction = (prompt: string, body: Record<string, unknown>) => PlatformAnswer;

/** The default answer: a fixed function of the prompt text, so sync and batch runs answer alike. */
export const hashAnswer: AnswerFunction = (prompt) =>
  `{"answer": "${createHash('sha256').update(prompt).digest('hex').slice(0, 8)}"}`;

/** What every platform lets a test set. */
export interface PlatformOptions {
  clock?: Clock;
  countTokens?: TokenCounter;
  answer?: AnswerFunction;
}

/** Everything a platform received, so tests can assert "never submitted twice, never paid twice". */
export interface Received {
  /** Files uploaded (OpenAI, Azure). */
  files: number;
  batchesCreated: number;
  /** Every batch request line ever submitted, by custom id: how many times. */
  batchLines: Map<string, number>;
  /** Synchronous generation requests. */
  syncRequests: number;
  /** Result downloads (files' content, Anthropic results, Gemini finished batches read). */
  resultDownloads: number;
}

export function emptyReceived(): Received {
  return { files: 0, batchesCreated: 0, batchLines: new Map(), syncRequests: 0, resultDownloads: 0 };
}

export function countLine(received: Received, customId: string): void {
  received.batchLines.set(customId, (received.batchLines.get(customId) ?? 0) + 1);
}

/** One HTTP exchange as a platform sees it. */
export interface Exchange {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  response: ServerResponse;
  request: IncomingMessage;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Sends `text`, or (when `cut`) its headers and first half, then closes the connection mid-body. */
export function sendText(exchange: Exchange, text: string, type: string, cut: boolean): void {
  const { response, request } = exchange;
  response.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(text)) });
  if (!cut) {
    response.end(text);
    return;
  }
  response.write(text.slice(0, Math.floor(text.length / 2)), () => request.socket.destroy());
}

/** The request body as JSON, or undefined when it is not JSON. */
export function parseJson(raw: Buffer): unknown {
  try {
    return raw.length === 0 ? {} : (JSON.parse(raw.toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}

export interface RunningPlatform {
  url: string;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 handing every whole request to `handle`. */
export async function listen(handle: (exchange: Exchange) => void): Promise<RunningPlatform> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://platform');
      const exchange: Exchange = {
        method: request.method ?? 'GET',
        url,
        headers: request.headers,
        raw: Buffer.concat(chunks),
        response,
        request,
      };
      try {
        handle(exchange);
      } catch (error) {
        sendJson(response, 500, { error: { message: String(error) } });
      }
    });
  });
  return listenOnLoopback(server);
}

let sequence = 0;
/** A fresh id with the provider's prefix. */
export function newId(prefix: string): string {
  sequence += 1;
  return `${prefix}${createHash('sha1').update(`${prefix}${sequence}`).digest('hex').slice(0, 24)}`;
}
