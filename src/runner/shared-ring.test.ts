import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SharedRing } from './shared-ring.js';

const record = (length: number, seed: number) =>
  Uint8Array.from({ length }, (_, index) => (seed + index) % 251);
const push = (ring: SharedRing, bytes: Uint8Array) => ring.push(bytes.length, (into) => into.set(bytes));
const shift = (ring: SharedRing) => ring.shift((bytes) => Uint8Array.from(bytes));

describe('SharedRing', () => {
  it('gives records back in order, wrapping at the end, and refuses what does not fit', () => {
    // 64 bytes: records of 4 + aligned length.
    const ring = SharedRing.create(64);
    expect(ring.largest).toBe(24);
    expect(shift(ring)).toBeUndefined();
    expect(push(ring, record(25, 0))).toBe(false); // never fits
    expect(push(ring, record(20, 1))).toBe(true); // 0..24
    expect(push(ring, record(16, 2))).toBe(true); // 24..44
    expect(push(ring, record(16, 3))).toBe(false); // 44..64 would leave head === tail
    expect(push(ring, record(12, 4))).toBe(true); // 44..60
    expect(push(ring, record(1, 5))).toBe(false); // 60..64 would meet tail 0
    expect(shift(ring)).toEqual(record(20, 1));
    // Free now: 60..64 and 0..24; a record of 20 needs 24 bytes: 0..24 would meet tail 24.
    expect(ring.hasRoom(20)).toBe(false);
    expect(push(ring, record(16, 6))).toBe(true); // wraps: 0..20, a wrap mark at 60
    expect([shift(ring), shift(ring), shift(ring)]).toEqual([record(16, 2), record(12, 4), record(16, 6)]);
    expect(shift(ring)).toBeUndefined();
    // Empty again, head and tail at 20: a record fills to the end exactly and the next starts at 0.
    expect(push(ring, record(20, 7))).toBe(true); // 20..44
    expect(push(ring, record(16, 8))).toBe(true); // 44..64, head back to 0
    expect(push(ring, record(0, 9))).toBe(true); // 0..4
    expect([shift(ring), shift(ring), shift(ring), shift(ring)]).toEqual([
      record(20, 7),
      record(16, 8),
      record(0, 9),
      undefined,
    ]);
  });

  it('carries every record to a reader thread, in order, while the writer outruns it', async () => {
    const ring = SharedRing.create(4096);
    // The reader: the ring's protocol on its own (the test runs from the TypeScript sources).
    const reader = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const header = new Int32Array(workerData, 0, 4);
       const view = new DataView(workerData, 16);
       const capacity = workerData.byteLength - 16;
       let tail = 0, sum = 0, count = 0;
       while (count < 20000) {
         const head = Atomics.load(header, 0);
         if (head === tail) { Atomics.store(header, 2, 1); Atomics.wait(header, 0, tail); Atomics.store(header, 2, 0); continue; }
         let length = view.getInt32(tail);
         if (length === -1) { tail = 0; length = view.getInt32(0); }
         const first = length > 0 ? view.getUint8(tail + 4) : 0;
         if (first !== count % 251) throw new Error('record ' + count + ' out of order');
         sum += length; count++;
         const next = tail + 4 + ((length + 3) & ~3);
         tail = next === capacity ? 0 : next;
         Atomics.store(header, 1, tail);
       }
       parentPort.postMessage({ sum, count });`,
      { eval: true, workerData: ring.buffer },
    );
    const done = new Promise<{ sum: number; count: number }>((resolve, reject) => {
      reader.once('message', resolve);
      reader.once('error', reject);
    });
    let sum = 0;
    for (let index = 0; index < 20000; index++) {
      const bytes = record(1 + ((index * 7919) % 700), index % 251);
      while (!push(ring, bytes)) await new Promise((resolve) => setImmediate(resolve));
      sum += bytes.length;
    }
    expect(await done).toEqual({ sum, count: 20000 });
    await reader.terminate();
  });
});
