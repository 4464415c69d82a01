import { readFileSync, readlinkSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** A thread's CPU time at past wall-clock moments, sampled by a worker about every 0.25 ms. */
export interface CpuClock {
  /** The calling thread's CPU milliseconds now. */
  now(): number;
  /** Its CPU milliseconds at the last sample taken at or before `wallMs` (epoch ms). */
  at(wallMs: number): number;
  stop(): Promise<void>;
}

const SAMPLES = 1 << 20;

// Plain JavaScript for `eval`: reads the thread's schedstat (ns on a CPU) and the wall clock.
const SAMPLER = `
const { workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const wall = new Float64Array(workerData.wall);
const cpu = new Float64Array(workerData.cpu);
const control = new Int32Array(workerData.control);
for (let index = 0; Atomics.load(control, 0) === 0 && index < wall.length; index++) {
  const running = Number(readFileSync(workerData.path, 'utf8').split(' ')[0]) / 1e6;
  wall[index] = performance.timeOrigin + performance.now();
  cpu[index] = running;
  Atomics.store(control, 1, index + 1);
  Atomics.wait(control, 0, 0, 0.25);
}
`;

/**
 * The calling thread's CPU clock (Linux /proc), or undefined where the kernel does not give it.
 * A timing check on this clock measures the code, not how long the thread waited for a CPU on a
 * loaded machine.
 */
export async function startCpuClock(): Promise<CpuClock | undefined> {
  let path: string;
  try {
    path = `/proc/${readlinkSync('/proc/thread-self')}/schedstat`;
    readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const read = () => Number(readFileSync(path, 'utf8').split(' ')[0]) / 1e6;
  const buffers = {
    wall: new SharedArrayBuffer(SAMPLES * 8),
    cpu: new SharedArrayBuffer(SAMPLES * 8),
    control: new SharedArrayBuffer(8),
  };
  const wall = new Float64Array(buffers.wall);
  const cpu = new Float64Array(buffers.cpu);
  const control = new Int32Array(buffers.control);
  const worker = new Worker(SAMPLER, { eval: true, workerData: { path, ...buffers } });
  await new Promise<void>((resolve, reject) => {
    worker.once('online', resolve);
    worker.once('error', reject);
  });
  while (Atomics.load(control, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  return {
    now: read,
    at(wallMs) {
      const taken = Atomics.load(control, 1);
      let low = 0;
      let high = taken - 1;
      if (wall[0]! > wallMs) throw new Error(`no CPU sample before ${wallMs}`);
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (wall[middle]! <= wallMs) low = middle;
        else high = middle - 1;
      }
      return cpu[low]!;
    },
    async stop() {
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      await worker.terminate();
    },
  };
}

/** When an answer reached medbench: wall time, and the receiving thread's CPU time where known. */
export interface Arrival {
  wallMs: number;
  cpuMs: number | undefined;
}

/**
 * How long after its arrival each cached answer was committed: the receiving thread's CPU
 * milliseconds in between where there is a CPU clock, else wall milliseconds. The store's
 * `created_at` (the commit) has whole milliseconds, so the commit came before its next one. Each
 * row's text is `{"answer": <key of arrivals>}`.
 */
export function commitLags(
  rows: ReadonlyArray<{ text: string; created_at: string }>,
  arrivals: ReadonlyMap<string, Arrival>,
  clock: CpuClock | undefined,
): number[] {
  return rows.map((row) => {
    const arrival = arrivals.get(JSON.parse(row.text).answer as string)!;
    const committedBy = Date.parse(row.created_at) + 1;
    return clock && arrival.cpuMs !== undefined
      ? clock.at(committedBy) - arrival.cpuMs
      : committedBy - 1 - Math.floor(arrival.wallMs);
  });
}
