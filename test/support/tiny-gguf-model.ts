import { writeFileSync } from 'node:fs';

/** GGUF metadata value types (the GGUF specification, version 3). */
const TYPE = { UINT32: 4, INT32: 5, FLOAT32: 6, STRING: 8, ARRAY: 9 } as const;
type Value = number | string | { type: number; items: Array<number | string> };

/**
 * Writes a tiny llama-architecture GGUF model with seeded random weights, as the GGUF format
 * documents it: one transformer block, 64-wide, and a SentencePiece vocabulary of the 256 byte
 * tokens (any text tokenizes) plus <unk>, <s>, </s> and "▁". It answers nonsense, but
 * deterministically: a real model file for llama.cpp end to end. Returns the vocabulary size.
 */
export function writeTinyGgufModel(
  path: string,
  options: { seed?: number; contextLength?: number } = {},
): number {
  const chunks: Buffer[] = [];
  const u32 = (value: number) => chunks.push(Buffer.from(new Uint32Array([value]).buffer));
  const i32 = (value: number) => chunks.push(Buffer.from(new Int32Array([value]).buffer));
  const f32 = (value: number) => chunks.push(Buffer.from(new Float32Array([value]).buffer));
  const u64 = (value: number) => chunks.push(Buffer.from(new BigUint64Array([BigInt(value)]).buffer));
  const text = (value: string) => {
    const bytes = Buffer.from(value, 'utf8');
    u64(bytes.length);
    chunks.push(bytes);
  };
  const write = (type: number, value: Value) => {
    if (type === TYPE.UINT32) u32(value as number);
    else if (type === TYPE.INT32) i32(value as number);
    else if (type === TYPE.FLOAT32) f32(value as number);
    else if (type === TYPE.STRING) text(value as string);
    else {
      const array = value as { type: number; items: Array<number | string> };
      u32(array.type);
      u64(array.items.length);
      for (const item of array.items) write(array.type, item);
    }
  };
  const width = 64;
  const hidden = 128;
  const heads = 4;
  const tokens = [
    '<unk>',
    '<s>',
    '</s>',
    ...Array.from({ length: 256 }, (_, byte) => `<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`),
    '▁',
  ];
  // unknown, control, byte and normal tokens.
  const kinds = tokens.map((_, index) => (index === 0 ? 2 : index < 3 ? 3 : index < 259 ? 6 : 1));
  const metadata: Array<[string, number, Value]> = [
    ['general.architecture', TYPE.STRING, 'llama'],
    ['general.name', TYPE.STRING, 'medbench-tiny-random'],
    ['general.alignment', TYPE.UINT32, 32],
    ['llama.context_length', TYPE.UINT32, options.contextLength ?? 16384],
    ['llama.embedding_length', TYPE.UINT32, width],
    ['llama.block_count', TYPE.UINT32, 1],
    ['llama.feed_forward_length', TYPE.UINT32, hidden],
    ['llama.attention.head_count', TYPE.UINT32, heads],
    ['llama.attention.head_count_kv', TYPE.UINT32, heads],
    ['llama.attention.layer_norm_rms_epsilon', TYPE.FLOAT32, 1e-5],
    ['llama.rope.dimension_count', TYPE.UINT32, width / heads],
    ['tokenizer.ggml.model', TYPE.STRING, 'llama'],
    ['tokenizer.ggml.tokens', TYPE.ARRAY, { type: TYPE.STRING, items: tokens }],
    ['tokenizer.ggml.scores', TYPE.ARRAY, { type: TYPE.FLOAT32, items: tokens.map(() => 0) }],
    ['tokenizer.ggml.token_type', TYPE.ARRAY, { type: TYPE.INT32, items: kinds }],
    ['tokenizer.ggml.bos_token_id', TYPE.UINT32, 1],
    ['tokenizer.ggml.eos_token_id', TYPE.UINT32, 2],
    ['tokenizer.ggml.unknown_token_id', TYPE.UINT32, 0],
  ];
  const vocabulary = tokens.length;
  const tensors: Array<[string, number[]]> = [
    ['token_embd.weight', [width, vocabulary]],
    ['output_norm.weight', [width]],
    ['output.weight', [width, vocabulary]],
    ['blk.0.attn_norm.weight', [width]],
    ['blk.0.attn_q.weight', [width, width]],
    ['blk.0.attn_k.weight', [width, width]],
    ['blk.0.attn_v.weight', [width, width]],
    ['blk.0.attn_output.weight', [width, width]],
    ['blk.0.ffn_norm.weight', [width]],
    ['blk.0.ffn_gate.weight', [width, hidden]],
    ['blk.0.ffn_up.weight', [width, hidden]],
    ['blk.0.ffn_down.weight', [hidden, width]],
  ];
  chunks.push(Buffer.from('GGUF', 'latin1'));
  u32(3);
  u64(tensors.length);
  u64(metadata.length);
  for (const [key, type, value] of metadata) {
    text(key);
    u32(type);
    write(type, value);
  }
  const aligned = (bytes: number) => Math.ceil(bytes / 32) * 32;
  let seed = options.seed ?? 7;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32 - 0.5;
  };
  const data: Buffer[] = [];
  let offset = 0;
  for (const [name, dims] of tensors) {
    text(name);
    u32(dims.length);
    for (const dim of dims) u64(dim);
    u32(0); // F32
    u64(offset);
    const values = new Float32Array(dims.reduce((product, dim) => product * dim, 1));
    for (let index = 0; index < values.length; index++)
      values[index] = name.includes('norm') ? 1 : random() * 0.2;
    const bytes = Buffer.from(values.buffer);
    data.push(bytes, Buffer.alloc(aligned(bytes.length) - bytes.length));
    offset += aligned(bytes.length);
  }
  const header = Buffer.concat(chunks);
  writeFileSync(path, Buffer.concat([header, Buffer.alloc(aligned(header.length) - header.length), ...data]));
  return vocabulary;
}
