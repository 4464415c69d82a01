import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onnxModelBytes } from '../../src/search/onnx-model-proto.js';
import { writeWordPieceTokenizer } from './tokenizer-files.js';

export const TINY_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'fever',
  'cough',
  'rash',
  'pain',
  '发',
  '热',
  '咳',
];

/** Hidden states of the tiny model: token i maps to row i (3 units). */
export const TINY_EMBEDDINGS = [
  [0, 0, 0],
  [0, 0, 1],
  [1, 0, 0],
  [0, 1, 0],
  [4, 0, 2],
  [0, 4, 2],
  [2, 2, 0],
  [1, 3, 1],
  [3, 1, 0],
  [1, 1, 3],
  [0, 2, 2],
];

/**
 * Writes a BERT-shaped model folder that the tests build themselves: a WordPiece tokenizer.json
 * and an ONNX graph whose last_hidden_state is an embedding lookup (Gather), so every pooled
 * vector can be computed by hand.
 */
export function writeTinyOnnxModel(
  options: { maxLength?: number; withTokenizer?: boolean; hiddenStates?: boolean } = {},
): string {
  const folder = mkdtempSync(join(tmpdir(), 'tiny-onnx-'));
  mkdirSync(join(folder, 'onnx'));
  const hidden = 3;
  writeFileSync(
    join(folder, 'onnx', 'model.onnx'),
    onnxModelBytes({
      name: 'tiny_encoder',
      nodes: [
        {
          opType: 'Gather',
          inputs: ['table', 'input_ids'],
          outputs: ['last_hidden_state'],
          attributes: { axis: 0 },
        },
        // With hiddenStates, layer 1 is the lookup doubled plus one everywhere: distinguishable.
        ...(options.hiddenStates
          ? [
              { opType: 'Add', inputs: ['last_hidden_state', 'last_hidden_state'], outputs: ['doubled'] },
              { opType: 'Add', inputs: ['doubled', 'one'], outputs: ['hidden_states.1'] },
            ]
          : []),
      ],
      inputs: [
        { name: 'input_ids', type: 'int64', shape: ['batch', 'sequence'] },
        { name: 'attention_mask', type: 'int64', shape: ['batch', 'sequence'] },
        { name: 'token_type_ids', type: 'int64', shape: ['batch', 'sequence'] },
      ],
      outputs: [
        { name: 'last_hidden_state', type: 'float', shape: ['batch', 'sequence', hidden] },
        ...(options.hiddenStates
          ? [{ name: 'hidden_states.1', type: 'float' as const, shape: ['batch', 'sequence', hidden] }]
          : []),
      ],
      initializers: [
        {
          name: 'table',
          type: 'float',
          dims: [TINY_VOCAB.length, hidden],
          values: Float32Array.from(TINY_EMBEDDINGS.flat()),
        },
        // Only where a node reads it: onnxruntime warns about every unused initializer.
        ...(options.hiddenStates
          ? [{ name: 'one', type: 'float' as const, dims: [1], values: Float32Array.from([1]) }]
          : []),
      ],
    }),
  );
  if (options.withTokenizer === false) return folder;
  writeWordPieceTokenizer(folder, TINY_VOCAB, { maxLength: options.maxLength ?? 512 });
  return folder;
}
