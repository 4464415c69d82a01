// The body of StoreWriterThread: one connection to the store file, committing what the run's
// thread puts in the shared ring, in order, what it finds there together in one transaction.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { Store } from '../store/store.js';
import { SharedRing } from './shared-ring.js';
import type { WriterReply } from './store-writer-thread.js';
import { applyStoreWrites } from './store-writes.js';
import {
  decodeWriterMessage,
  ON_SIDE_PORT,
  type WriterMessage,
  type WriterThreadData,
} from './writer-record.js';

/** How often the ring is looked at while answers come: at most this long before one is committed. */
const POLL_MS = 0.5;
/** Nothing for this many looks: the thread sleeps until the next message wakes it. */
const IDLE_POLLS = 200;

const port = parentPort!;
const { path, ring: buffer, side } = workerData as WriterThreadData;
const ring = new SharedRing(buffer);
// The run's own Store checked the file before this thread started.
const store = new Store(path, { checked: true });
port.postMessage('ready');

function commit(batch: WriterMessage[]): void {
  const reply: WriterReply = { ids: batch.flatMap((message) => message.ids) };
  try {
    // Nothing to write (a close), nothing committed: a run that wrote nothing leaves no store file.
    if (batch.some((message) => message.writes.length > 0))
      store.transaction(() => {
        for (const message of batch) applyStoreWrites(store, message.writes);
      });
  } catch (error) {
    reply.error = (error as Error).message;
  }
  port.postMessage(reply);
}

function read(record: Uint8Array): WriterMessage {
  if (record.byteLength !== ON_SIDE_PORT.length) return decodeWriterMessage(record);
  // Too large for the ring: its message was posted on the side port before this marker.
  return receiveMessageOnPort(side)!.message as WriterMessage;
}

// The thread's whole life: it is stopped by `terminate` (which also ends a wait).
let idle = 0;
for (;;) {
  const batch: WriterMessage[] = [];
  for (let message = ring.shift(read); message !== undefined; message = ring.shift(read)) batch.push(message);
  if (batch.length === 0) {
    ring.waitForData(idle < IDLE_POLLS ? POLL_MS : undefined);
    idle++;
    continue;
  }
  idle = 0;
  commit(batch);
}
