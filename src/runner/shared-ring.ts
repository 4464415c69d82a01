/** Slots of the ring's header (an Int32Array at the start of the buffer). */
const HEAD = 0;
const TAIL = 1;
const SLEEPING = 2;
const HEADER_BYTES = 16;
/** A record's length word that says "the rest of the ring is empty: go on at its start". */
const WRAP = -1;

/**
 * Records of bytes passed from one thread to another through shared memory, in order: one writer,
 * one reader. Writing costs no system call while the reader polls (`waitForData` with a time-out):
 * a message between threads (`postMessage`) wakes the other thread through the kernel each time,
 * which on this project's VMs cost the sending thread 30–40 µs. A reader that found nothing for a
 * while sleeps instead (`waitForData` without a time-out), and the next record wakes it.
 */
export class SharedRing {
  private readonly header: Int32Array;
  private readonly bytes: Uint8Array;
  private readonly words: DataView;
  private readonly capacity: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.bytes = new Uint8Array(buffer, HEADER_BYTES);
    this.words = new DataView(buffer, HEADER_BYTES);
    this.capacity = this.bytes.length;
  }

  /** A ring of `capacity` bytes (a multiple of 4; records are 4-byte aligned with a 4-byte length). */
  static create(capacity: number): SharedRing {
    if (capacity % 4 !== 0 || capacity < 64) throw new RangeError(`ring capacity ${capacity}`);
    return new SharedRing(new SharedArrayBuffer(HEADER_BYTES + capacity));
  }

  /** The largest record `push` can ever take. */
  get largest(): number {
    return this.capacity / 2 - 8;
  }

  /** Whether `push` of a record of `length` bytes would succeed now (only `push` takes room). */
  hasRoom(length: number): boolean {
    return this.place(length) !== undefined;
  }

  /**
   * Appends a record of `length` bytes that `fill` writes into the view it is given; false when
   * the ring has no room for it now (the reader has not caught up) or never will (`largest`).
   */
  push(length: number, fill: (into: Uint8Array) => void): boolean {
    const at = this.place(length);
    if (at === undefined) return false;
    const head = this.header[HEAD]!;
    // The rest of the ring is too short: the record goes at its start.
    if (at !== head) this.words.setInt32(head, WRAP);
    this.words.setInt32(at, length);
    fill(this.bytes.subarray(at + 4, at + 4 + length));
    const next = at + 4 + align(length);
    // Published after the bytes: a reader that sees the new head sees the record.
    Atomics.store(this.header, HEAD, next === this.capacity ? 0 : next);
    if (Atomics.load(this.header, SLEEPING) === 1) Atomics.notify(this.header, HEAD);
    return true;
  }

  /** Where a record of `length` bytes would go now; undefined when it does not fit. */
  private place(length: number): number | undefined {
    if (length > this.largest) return undefined;
    const size = 4 + align(length);
    const head = this.header[HEAD]!;
    const tail = Atomics.load(this.header, TAIL);
    // Free: from head to tail, around the end when head >= tail; never all of it, so that
    // head === tail always means empty.
    if (head < tail) return tail - head > size ? head : undefined;
    if (this.capacity - head >= size + (tail === 0 ? 4 : 0)) return head;
    return tail > size ? 0 : undefined;
  }

  /** The next record, read by `read` before its room is given back; undefined when there is none. */
  shift<T>(read: (record: Uint8Array) => T): T | undefined {
    let tail = this.header[TAIL]!;
    const head = Atomics.load(this.header, HEAD);
    if (tail === head) return undefined;
    let length = this.words.getInt32(tail);
    if (length === WRAP) {
      tail = 0;
      length = this.words.getInt32(0);
    }
    const value = read(this.bytes.subarray(tail + 4, tail + 4 + length));
    const next = tail + 4 + align(length);
    Atomics.store(this.header, TAIL, next === this.capacity ? 0 : next);
    return value;
  }

  /**
   * The reader waits until a record is there: at most `timeoutMs` (polling: the writer does not
   * wake it), or until the writer's next record when `timeoutMs` is undefined.
   */
  waitForData(timeoutMs: number | undefined): void {
    const tail = this.header[TAIL]!;
    if (timeoutMs !== undefined) {
      Atomics.wait(this.header, HEAD, tail, timeoutMs);
      return;
    }
    // Said before the last look: a writer either sees it (and wakes this thread) or its record
    // was published before that look (and the wait returns at once).
    Atomics.store(this.header, SLEEPING, 1);
    Atomics.wait(this.header, HEAD, tail);
    Atomics.store(this.header, SLEEPING, 0);
  }
}

function align(length: number): number {
  return (length + 3) & ~3;
}
