const N = 624;
const M = 397;

/**
 * Python's `random.Random`: the MT19937 generator seeded the way CPython seeds it from an
 * integer, with `random()`, `getrandbits(k ≤ 32)` and `shuffle` producing exactly Python's
 * values. CLUE's published splits came from `random.seed(1); random.shuffle(items)`.
 */
export class PythonRandom {
  private readonly state = new Uint32Array(N);
  private index = N + 1;

  constructor(seed: number | bigint) {
    this.seed(seed);
  }

  private initGenrand(value: number): void {
    const state = this.state;
    state[0] = value >>> 0;
    for (let position = 1; position < N; position++) {
      const previous = state[position - 1]! ^ (state[position - 1]! >>> 30);
      state[position] = (Math.imul(1812433253, previous) + position) >>> 0;
    }
    this.index = N;
  }

  /** CPython's `init_by_array` over the seed's 32-bit words, least significant first. */
  seed(seed: number | bigint): void {
    let remaining = BigInt(seed) < 0n ? -BigInt(seed) : BigInt(seed);
    const key: number[] = [];
    do {
      key.push(Number(remaining & 0xffffffffn));
      remaining >>= 32n;
    } while (remaining > 0n);
    this.initGenrand(19650218);
    const state = this.state;
    let position = 1;
    let keyIndex = 0;
    for (let count = Math.max(N, key.length); count > 0; count--) {
      const previous = state[position - 1]! ^ (state[position - 1]! >>> 30);
      state[position] = ((state[position]! ^ Math.imul(previous, 1664525)) + key[keyIndex]! + keyIndex) >>> 0;
      position++;
      keyIndex++;
      if (position >= N) {
        state[0] = state[N - 1]!;
        position = 1;
      }
      if (keyIndex >= key.length) keyIndex = 0;
    }
    for (let count = N - 1; count > 0; count--) {
      const previous = state[position - 1]! ^ (state[position - 1]! >>> 30);
      state[position] = ((state[position]! ^ Math.imul(previous, 1566083941)) - position) >>> 0;
      position++;
      if (position >= N) {
        state[0] = state[N - 1]!;
        position = 1;
      }
    }
    state[0] = 0x80000000;
  }

  private twist(): void {
    const state = this.state;
    for (let position = 0; position < N; position++) {
      const y = (state[position]! & 0x80000000) | (state[(position + 1) % N]! & 0x7fffffff);
      state[position] = state[(position + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    this.index = 0;
  }

  /** The next 32-bit output (tempered). */
  nextUint32(): number {
    if (this.index >= N) this.twist();
    let y = this.state[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: 53 random bits in [0, 1). */
  random(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * 67108864 + low) / 9007199254740992;
  }

  /** `random.getrandbits(k)` for 1 ≤ k ≤ 32. */
  getrandbits(bits: number): number {
    if (!Number.isInteger(bits) || bits < 1 || bits > 32)
      throw new RangeError('getrandbits supports 1 to 32 bits');
    return this.nextUint32() >>> (32 - bits);
  }

  /** `_randbelow(n)`: rejection sampling on `n.bit_length()` bits. */
  randbelow(limit: number): number {
    // int.bit_length(), exactly (a logarithm can round up just below a power of two).
    const bits = limit.toString(2).length;
    let value = this.getrandbits(bits);
    while (value >= limit) value = this.getrandbits(bits);
    return value;
  }

  /**
   * `random.sample(population, k)` as CPython draws it: a pool that shrinks as items are taken
   * when the population is small, otherwise indexes drawn until unseen.
   */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n)
      throw new RangeError('sample larger than population or is negative');
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    const result: T[] = [];
    if (n <= setsize) {
      const pool = [...population];
      for (let index = 0; index < k; index++) {
        const pick = this.randbelow(n - index);
        result.push(pool[pick]!);
        pool[pick] = pool[n - index - 1]!;
      }
      return result;
    }
    const selected = new Set<number>();
    for (let index = 0; index < k; index++) {
      let pick = this.randbelow(n);
      while (selected.has(pick)) pick = this.randbelow(n);
      selected.add(pick);
      result.push(population[pick]!);
    }
    return result;
  }

  /** `random.shuffle(items)`, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let position = items.length - 1; position > 0; position--) {
      const other = this.randbelow(position + 1);
      [items[position], items[other]] = [items[other]!, items[position]!];
    }
    return items;
  }
}
