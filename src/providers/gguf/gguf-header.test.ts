import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../../test/support/temporary-folder.js';
import { writeTinyGgufModel } from '../../../test/support/tiny-gguf-model.js';
import { MedbenchError } from '../../core/errors.js';
import { readGgufHeader } from './gguf-header.js';

/** The tiny model in a new folder; `damaged` writes a copy of it edited in place, or what `edit` returns. */
function tinyModel() {
  const folder = temporaryFolder('medbench-gguf-header-');
  const model = join(folder, 'tiny.gguf');
  writeTinyGgufModel(model);
  const original = readFileSync(model);
  const damaged = (name: string, edit: (bytes: Buffer) => unknown): string => {
    const bytes = Buffer.from(original);
    const path = join(folder, `${name}.gguf`);
    const replaced = edit(bytes);
    writeFileSync(path, Buffer.isBuffer(replaced) ? replaced : bytes);
    return path;
  };
  return { model, damaged };
}

/** The byte offset of a length-prefixed string (its 8-byte length) in the header. */
function stringAt(bytes: Buffer, text: string): number {
  const at = bytes.indexOf(Buffer.from(text, 'latin1'));
  expect(at).toBeGreaterThan(8);
  return at - 8;
}

function failure(path: string): MedbenchError {
  try {
    readGgufHeader(path);
  } catch (error) {
    if (error instanceof MedbenchError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

describe('readGgufHeader', () => {
  it('reads a well-formed file: version, tensors, architecture, vocabulary', () => {
    const { model } = tinyModel();
    expect(readGgufHeader(model)).toEqual({
      version: 3,
      tensors: 12,
      architecture: 'llama',
      vocabulary: 260,
    });
  });

  // Each of these made node-llama-cpp or llama.cpp stop the process or hang (a fuzzing round found them).
  it('a string length past the end of the file (node-llama-cpp aborted the process)', () => {
    const { damaged } = tinyModel();
    const path = damaged('long-token', (bytes) => {
      bytes[stringAt(bytes, '<0xF3>') + 3] = 1;
    });
    const error = failure(path);
    expect(error.code).toBe('MODEL_FOLDER_INVALID');
    expect(error.message).toMatch(
      /not a well-formed GGUF model file: the file ends inside token 246 \(byte \d+\)/,
    );
    expect(error.hint).toContain('download it again');
  });

  it('a tensor name longer than llama.cpp allows (node-llama-cpp looped without end)', () => {
    const { damaged } = tinyModel();
    const path = damaged('long-name', (bytes) => {
      bytes.writeBigUInt64LE(50_963n, stringAt(bytes, 'blk.0.attn_v.weight'));
    });
    expect(failure(path).message).toContain('is 50963 bytes long (at most 63)');
  });

  it('a repeated token (llama.cpp aborted the process)', () => {
    const { damaged } = tinyModel();
    const path = damaged('repeated-token', (bytes) => {
      bytes.write('<0x00>', stringAt(bytes, '<0x01>') + 8, 'latin1');
    });
    expect(failure(path).message).toMatch(/token 4 repeats an earlier token of the vocabulary \(byte \d+\)/);
  });

  it('counts, dimensions and offsets the file cannot hold', () => {
    const { damaged } = tinyModel();
    const tensorCount = damaged('tensor-count', (bytes) => {
      bytes.writeBigUInt64LE(2n ** 60n, 8);
    });
    expect(failure(tensorCount).message).toContain('do not fit in the file (byte 8)');
    const items = damaged('items', (bytes) => {
      bytes.writeBigUInt64LE(2n ** 40n, stringAt(bytes, 'tokenizer.ggml.scores') + 8 + 21 + 8);
    });
    expect(failure(items).message).toContain('"tokenizer.ggml.scores" claims 1099511627776 items');
    const offset = (tensor: string, value: bigint) => (bytes: Buffer) => {
      // name, n_dims = 1 (a norm weight), one dimension, type, then the offset.
      bytes.writeBigUInt64LE(value, stringAt(bytes, tensor) + 8 + tensor.length + 4 + 8 + 4);
    };
    expect(failure(damaged('misaligned', offset('output_norm.weight', 33n))).message).toContain(
      'starts at offset 33, not a multiple of 32',
    );
    expect(failure(damaged('past-end', offset('output_norm.weight', 2n ** 40n))).message).toContain(
      'past the end of the file',
    );
    const dims = damaged('dims', (bytes) => {
      bytes.writeUInt32LE(9, stringAt(bytes, 'output_norm.weight') + 8 + 18);
    });
    expect(failure(dims).message).toContain('has 9 dimensions (1 to 4)');
    const empty = damaged('empty', (bytes) => {
      bytes.writeBigUInt64LE(0n, stringAt(bytes, 'output_norm.weight') + 8 + 18 + 4);
    });
    expect(failure(empty).message).toContain('tensor "output_norm.weight" has a dimension of 0');
    const noKey = damaged('no-key', (bytes) => {
      bytes.writeBigUInt64LE(0n, stringAt(bytes, 'general.architecture'));
    });
    expect(failure(noKey).message).toContain('metadata key 0 is empty or holds a NUL byte (byte 24)');
    const nul = damaged('nul-key', (bytes) => {
      bytes.write('\0\0', stringAt(bytes, 'llama.context_length') + 8, 'latin1');
    });
    expect(failure(nul).message).toContain('metadata key 3 is empty or holds a NUL byte');
  });

  it('not GGUF at all, another version, a cut file', () => {
    const { damaged } = tinyModel();
    expect(failure(damaged('text', () => Buffer.from('{"model": "not gguf"}'))).message).toContain(
      'it does not start with "GGUF" (byte 0)',
    );
    expect(failure(damaged('v1', (bytes) => void bytes.writeUInt32LE(1, 4))).message).toContain(
      'version 1 (llama.cpp reads versions 2 and 3)',
    );
    for (const length of [0, 3, 12, 100, 2000, 6000])
      expect(failure(damaged(`cut-${length}`, (bytes) => bytes.subarray(0, length))).code).toBe(
        'MODEL_FOLDER_INVALID',
      );
  });
});
