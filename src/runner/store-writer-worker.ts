// The body of StoreWriterThread: one connection to the store file, committing what the run's
// thread sends, in order, the messages that arrived together in one transaction.
import { parentPort, workerData } from 'node:worker_threads';
import { Store } from '../store/store.js';
import type { WriterMessage, WriterReply } from './store-writer-thread.js';
import { applyStoreWrites } from './store-writes.js';

const port = parentPort!;
const store = new Store((workerData as { path: string }).path);
port.postMessage('ready');
const queue: WriterMessage[] = [];
let scheduled = false;

function commit(): void {
  scheduled = false;
  const batch = queue.splice(0);
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

port.on('message', (message: WriterMessage) => {
  queue.push(message);
  if (!scheduled) {
    scheduled = true;
    // After the messages already delivered in this turn: they join the same transaction.
    setImmediate(commit);
  }
});
