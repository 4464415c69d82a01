import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MedbenchError } from '../../core/errors.js';

/** What `readGgufHeader` learnt of a file it found well formed. */
export interface GgufHeader {
  version: number;
  tensors: number;
  /** `general.architecture`, when the file names one. */
  architecture: string | undefined;
  /** Entries of `tokenizer.ggml.tokens` (0 without a vocabulary). */
  vocabulary: number;
}

/** Metadata value types of the GGUF specification: fixed sizes in bytes (strings and arrays vary). */
const FIXED_SIZE: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};
const STRING = 8;
const ARRAY = 9;
const UINT32 = 4;
/** llama.cpp's limits: tensor names (GGML_MAX_NAME, with the closing NUL) and dimensions (GGML_MAX_DIMS). */
const MAX_TENSOR_NAME = 63;
const MAX_DIMS = 4;
/** The GGUF specification's limit on a metadata key. */
const MAX_KEY = 65_535;
const CHUNK = 1 << 20;

/** A forward reader over a file, every length checked against what is left of it. */
class Cursor {
  position = 0;
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
    /** Stops the read with an error naming what is wrong and the byte. */
    readonly fail: (what: string, at: number) => never,
  ) {}

  /** `length` bytes from the position (a view valid until the next read). */
  bytes(length: number, what: string): Buffer {
    if (length > this.size - this.position) this.fail(`the file ends inside ${what}`, this.position);
    const offset = this.position - this.bufferStart;
    if (offset + length > this.buffer.length) {
      this.buffer = Buffer.alloc(Math.max(length, Math.min(CHUNK, this.size - this.position)));
      const read = readSync(this.fd, this.buffer, 0, this.buffer.length, this.position);
      if (read < length) this.fail(`the file ends inside ${what}`, this.position);
      this.bufferStart = this.position;
    }
    const start = this.position - this.bufferStart;
    this.position += length;
    return this.buffer.subarray(start, start + length);
  }

  skip(length: bigint | number, what: string): void {
    if (BigInt(length) > BigInt(this.size - this.position))
      this.fail(`the file ends inside ${what}`, this.position);
    this.position += Number(length);
  }

  u32(what: string): number {
    return this.bytes(4, what).readUInt32LE(0);
  }

  u64(what: string): bigint {
    return this.bytes(8, what).readBigUInt64LE(0);
  }

  /** A length-prefixed string: its bytes as latin1 text (one character a byte), or skipped. */
  string(what: string, options: { max?: number; keep?: boolean } = {}): string {
    const at = this.position;
    const length = this.u64(`the length of ${what}`);
    if (options.max !== undefined && length > BigInt(options.max))
      this.fail(`${what} is ${length} bytes long (at most ${options.max})`, at);
    if (options.keep) return this.bytes(Number(length), what).toString('latin1');
    this.skip(length, what);
    return '';
  }
}

/**
 * Checks a GGUF file's header — metadata and tensor table — before llama.cpp and node-llama-cpp
 * read it, with every length, count and offset bounded by the file's size. A damaged file then
 * stops with an error naming the byte, instead of what those readers do with it: node-llama-cpp's
 * header reader aborts the process or loops without end on some damaged lengths, and llama.cpp
 * aborts on a vocabulary with repeated tokens. Reads only the header (a few MB at most).
 */
export function readGgufHeader(path: string): GgufHeader {
  const fail = (what: string, at: number): never => {
    throw new MedbenchError({
      code: 'MODEL_FOLDER_INVALID',
      message: `${path} is not a well-formed GGUF model file: ${what} (byte ${at}).`,
      hint: 'The file is damaged or not a GGUF model: download it again and compare its SHA-256 with the one its publisher lists.',
    });
  };
  const fd = openSync(path, 'r');
  try {
    return readHeader(new Cursor(fd, fstatSync(fd).size, fail));
  } finally {
    closeSync(fd);
  }
}

function readHeader(cursor: Cursor): GgufHeader {
  const { fail } = cursor;
  if (cursor.bytes(4, 'the magic number').toString('latin1') !== 'GGUF')
    fail('it does not start with "GGUF"', 0);
  const version = cursor.u32('the version');
  if (version !== 2 && version !== 3) fail(`version ${version} (llama.cpp reads versions 2 and 3)`, 4);
  const tensorCount = cursor.u64('the tensor count');
  const keyCount = cursor.u64('the metadata count');
  // Each metadata entry takes at least 13 bytes, each tensor 32: counts beyond that are damage.
  if (keyCount * 13n + tensorCount * 32n > BigInt(cursor.size - cursor.position))
    fail(`${tensorCount} tensors and ${keyCount} metadata entries do not fit in the file`, 8);
  const metadata = readMetadata(cursor, Number(keyCount));
  const tensors = readTensorTable(cursor, Number(tensorCount));
  const alignment = metadata.alignment ?? 32;
  const dataStart = Math.ceil(cursor.position / alignment) * alignment;
  for (const tensor of tensors) {
    if (tensor.offset % BigInt(alignment) !== 0n)
      fail(
        `tensor "${tensor.name}" starts at offset ${tensor.offset}, not a multiple of ${alignment}`,
        tensor.at,
      );
    if (BigInt(dataStart) + tensor.offset > BigInt(cursor.size))
      fail(`tensor "${tensor.name}" starts at offset ${tensor.offset}, past the end of the file`, tensor.at);
  }
  return {
    version,
    tensors: tensors.length,
    architecture: metadata.architecture,
    vocabulary: metadata.vocabulary,
  };
}

interface Metadata {
  alignment: number | undefined;
  architecture: string | undefined;
  vocabulary: number;
}

function readMetadata(cursor: Cursor, count: number): Metadata {
  const { fail } = cursor;
  const seen = new Set<string>();
  const lengths = new Map<string, number>();
  const found: Metadata = { alignment: undefined, architecture: undefined, vocabulary: 0 };
  for (let entry = 0; entry < count; entry++) {
    const at = cursor.position;
    const key = cursor.string(`metadata key ${entry}`, { max: MAX_KEY, keep: true });
    // llama.cpp stops the process on an empty key (and reads one up to its first NUL byte).
    if (key === '' || key.includes('\0')) fail(`metadata key ${entry} is empty or holds a NUL byte`, at);
    if (seen.has(key)) fail(`the metadata key "${key}" appears twice`, at);
    seen.add(key);
    const typeAt = cursor.position;
    const type = cursor.u32(`the type of "${key}"`);
    if (type === ARRAY) {
      const itemType = cursor.u32(`the item type of "${key}"`);
      const items = cursor.u64(`the length of "${key}"`);
      if (itemType === ARRAY) fail(`"${key}" is an array of arrays (llama.cpp reads none)`, typeAt);
      const least = FIXED_SIZE[itemType] ?? (itemType === STRING ? 8 : undefined);
      if (least === undefined) fail(`"${key}" has items of unknown type ${itemType}`, typeAt);
      if (items * BigInt(least!) > BigInt(cursor.size - cursor.position))
        fail(`"${key}" claims ${items} items, more than the file holds`, typeAt);
      lengths.set(key, Number(items));
      if (key === 'tokenizer.ggml.tokens' && itemType === STRING) {
        found.vocabulary = Number(items);
        readTokens(cursor, Number(items));
      } else if (itemType === STRING)
        for (let item = 0; item < Number(items); item++) cursor.string(`item ${item} of "${key}"`);
      else cursor.skip(items * BigInt(least!), `"${key}"`);
    } else if (type === STRING) {
      const value = cursor.string(`"${key}"`, { keep: key === 'general.architecture' });
      if (key === 'general.architecture') found.architecture = value;
    } else {
      const size = FIXED_SIZE[type];
      if (size === undefined) fail(`"${key}" has unknown type ${type}`, typeAt);
      const value = cursor.bytes(size!, `"${key}"`);
      if (key === 'general.alignment') {
        const alignment = type === UINT32 ? value.readUInt32LE(0) : 0;
        if (alignment === 0 || (alignment & (alignment - 1)) !== 0)
          fail('general.alignment is not a power of two stored as uint32', typeAt);
        found.alignment = alignment;
      }
    }
  }
  for (const key of ['tokenizer.ggml.scores', 'tokenizer.ggml.token_type']) {
    const length = lengths.get(key);
    if (length !== undefined && length !== found.vocabulary)
      fail(`${key} has ${length} entries for ${found.vocabulary} tokens`, cursor.position);
  }
  return found;
}

/** The vocabulary's tokens: llama.cpp stops the process on a token that appears twice. */
function readTokens(cursor: Cursor, count: number): void {
  const { fail } = cursor;
  const tokens = new Set<string>();
  for (let id = 0; id < count; id++) {
    const at = cursor.position;
    const token = cursor.string(`token ${id}`, { keep: true });
    if (tokens.has(token)) fail(`token ${id} repeats an earlier token of the vocabulary`, at);
    tokens.add(token);
  }
}

interface TensorEntry {
  name: string;
  offset: bigint;
  /** Where its entry starts in the file. */
  at: number;
}

function readTensorTable(cursor: Cursor, count: number): TensorEntry[] {
  const { fail } = cursor;
  const tensors: TensorEntry[] = [];
  for (let index = 0; index < count; index++) {
    const at = cursor.position;
    const name = cursor.string(`the name of tensor ${index}`, { max: MAX_TENSOR_NAME, keep: true });
    if (name === '' || name.includes('\0'))
      fail(`the name of tensor ${index} is empty or holds a NUL byte`, at);
    const dims = cursor.u32(`the dimensions of "${name}"`);
    if (dims < 1 || dims > MAX_DIMS) fail(`tensor "${name}" has ${dims} dimensions (1 to ${MAX_DIMS})`, at);
    let elements = 1n;
    for (let dim = 0; dim < dims; dim++) {
      const size = cursor.u64(`a dimension of "${name}"`);
      // llama.cpp stops the process on an empty dimension.
      if (size === 0n) fail(`tensor "${name}" has a dimension of 0`, at);
      elements *= size;
    }
    // At least one bit a weight (the smallest quantizations use 1.56): more elements are damage.
    if (elements > BigInt(cursor.size) * 8n)
      fail(`tensor "${name}" has ${elements} elements, more than the file could hold`, at);
    cursor.u32(`the type of "${name}"`);
    tensors.push({ name, offset: cursor.u64(`the offset of "${name}"`), at });
  }
  return tensors;
}
