import type { MessagePort } from 'node:worker_threads';
import type { PreparedPrompt } from '../store/prepared-prompt.js';
import type { StoreWrite } from './store-writes.js';

/** What the writer thread is sent: writes to commit in order, and the ids of the calls they came from. */
export interface WriterMessage {
  ids: number[];
  writes: StoreWrite[];
}

/** What the writer thread is given: the store, the ring it reads, the port for messages too large for it. */
export interface WriterThreadData {
  path: string;
  ring: SharedArrayBuffer;
  side: MessagePort;
}

/** A record of the ring that says "the next message is on the side port" (too large for the ring). */
export const ON_SIDE_PORT = new Uint8Array([0, 0, 0, 0]);

/** A message as bytes: its length, and the function that writes them into a view of that length. */
export interface EncodedMessage {
  length: number;
  fill: (into: Uint8Array) => void;
}

/** Where a prepared prompt's content went: the bytes after the JSON, in order. */
interface PromptBytes extends Omit<PreparedPrompt, 'content'> {
  content: { bytes: number };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A writer message as one record: a 4-byte length, its JSON, then the bytes of every prepared
 * (compressed) prompt in it, which JSON would carry as numbers. JSON and not the structured clone
 * of `postMessage`: each value a result holds is written by SQLite as JSON text or a plain
 * number, string or boolean, so the round trip keeps what is stored; and it costs a tenth.
 */
export function encodeWriterMessage(message: WriterMessage): EncodedMessage {
  const blobs: Uint8Array[] = [];
  const writes = message.writes.map((write) => {
    if (write.kind !== 'result') return write;
    const { prompt } = write.result;
    if (prompt === null || typeof prompt === 'string') return write;
    blobs.push(prompt.content);
    const moved: PromptBytes = { ...prompt, content: { bytes: prompt.content.byteLength } };
    return { ...write, result: { ...write.result, prompt: moved } };
  });
  const json = JSON.stringify({ ids: message.ids, writes });
  const jsonLength = Buffer.byteLength(json);
  let length = 4 + jsonLength;
  for (const blob of blobs) length += blob.byteLength;
  return {
    length,
    fill: (into) => {
      new DataView(into.buffer, into.byteOffset, 4).setUint32(0, jsonLength);
      encoder.encodeInto(json, into.subarray(4, 4 + jsonLength));
      let at = 4 + jsonLength;
      for (const blob of blobs) {
        into.set(blob, at);
        at += blob.byteLength;
      }
    },
  };
}

/** The message `encodeWriterMessage` wrote into `record` (its bytes copied: the record's room is reused). */
export function decodeWriterMessage(record: Uint8Array): WriterMessage {
  const jsonLength = new DataView(record.buffer, record.byteOffset, 4).getUint32(0);
  const message = JSON.parse(decoder.decode(record.subarray(4, 4 + jsonLength))) as WriterMessage;
  let at = 4 + jsonLength;
  for (const write of message.writes) {
    if (write.kind !== 'result') continue;
    const prompt = write.result.prompt as PromptBytes | string | null;
    if (prompt === null || typeof prompt === 'string') continue;
    const { bytes } = prompt.content;
    write.result.prompt = { ...prompt, content: Buffer.from(record.subarray(at, at + bytes)) };
    at += bytes;
  }
  return message;
}
