import { z } from 'zod';
import { poolingOf } from '../embedding-options.js';
import { defineEmbedding } from '../provider-descriptor.js';

/** A local embedding model exported to ONNX (model.onnx + tokenizer.json), run in this process. */
export const localOnnxEmbedding = defineEmbedding({
  name: 'local-onnx',
  specForm: 'onnx:<model folder>',
  specPrefix: 'onnx',
  parse: (rest) => ({ provider: 'local-onnx', folder: rest }),
  settings: {
    /** The exported model folder (model.onnx + tokenizer.json). */
    folder: z.string().min(1).optional(),
  },
  namedByFolder: true,
  endpoints: () => [''],
  async create(options) {
    const { entry, overrides } = options;
    const { LocalOnnxEmbeddingModel } = await import('./local-onnx-embedding-model.js');
    const pooling = poolingOf(options);
    const batchSize = overrides.batchSize ?? entry.batchSize;
    const maxLength = overrides.maxLength ?? entry.maxLength;
    return new LocalOnnxEmbeddingModel({
      folder: entry.folder!,
      ...(pooling ? { pooling } : {}),
      ...(batchSize ? { batchSize } : {}),
      ...(maxLength ? { maxLength } : {}),
      ...(entry.label ? { modelId: entry.label } : {}),
    });
  },
});
