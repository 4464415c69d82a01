import { describe, expect, it } from 'vitest';
import { writeTinyOnnxModel } from '../../../test/support/tiny-onnx-model.js';
import { bertScoreF1s } from '../../suites/clue/bertscore-pass.js';
import { LocalOnnxTokenEncoder } from './local-onnx-token-encoder.js';

describe('BERTScore through a local ONNX encoder', () => {
  it('returns token vectors with the content range, specials included', async () => {
    const encoder = new LocalOnnxTokenEncoder({ folder: writeTinyOnnxModel() });
    const [encoded] = await encoder.encodeTokens(['fever cough']);
    // [CLS]=2 fever=4 cough=5 [SEP]=3 → rows of the tiny model's table.
    expect(encoded!.vectors.map((vector) => [...vector])).toEqual([
      [1, 0, 0],
      [4, 0, 2],
      [0, 4, 2],
      [0, 1, 0],
    ]);
    expect([encoded!.start, encoded!.end]).toEqual([1, 3]);
  });

  it('reads a chosen hidden layer, and names the outputs when the layer is missing', async () => {
    const folder = writeTinyOnnxModel({ hiddenStates: true });
    const [encoded] = await new LocalOnnxTokenEncoder({ folder, layer: 1 }).encodeTokens(['rash']);
    // [CLS] (1,0,0) → 2·x + 1 = (3,1,1); rash (2,2,0) → (5,5,1); [SEP] (0,1,0) → (1,3,1).
    expect(encoded!.vectors.map((vector) => [...vector])).toEqual([
      [3, 1, 1],
      [5, 5, 1],
      [1, 3, 1],
    ]);
    await expect(new LocalOnnxTokenEncoder({ folder, layer: 7 }).encodeTokens(['rash'])).rejects.toThrow(
      /has no output "hidden_states\.7" \(it has last_hidden_state, hidden_states\.1\)/,
    );
  });

  it('scores as bert_score does: specials may be matched but are not averaged', async () => {
    const encoder = new LocalOnnxTokenEncoder({ folder: writeTinyOnnxModel(), batchSize: 1 });
    // Candidate "fever": P = cos(fever, fever) = 1.
    // Reference "fever cough": fever → 1; cough (0,4,2) → best over [CLS] (1,0,0), fever (4,0,2), [SEP] (0,1,0):
    // cos with fever = 4/20 = 0.2, with [SEP] = 4/√20 ≈ 0.894 → R = (1 + 4/√20) / 2.
    const recall = (1 + 4 / Math.sqrt(20)) / 2;
    const [f1, same] = await bertScoreF1s(
      [
        { prediction: 'fever', reference: 'fever cough' },
        { prediction: 'rash', reference: 'rash' },
      ],
      encoder,
    );
    expect(f1).toBeCloseTo((2 * recall) / (1 + recall), 6);
    expect(same).toBeCloseTo(1, 6);
  });

  it('closes: the session is released, and a later call loads the model again', async () => {
    const encoder = new LocalOnnxTokenEncoder({ folder: writeTinyOnnxModel() });
    await encoder.close();
    const [before] = await encoder.encodeTokens(['fever']);
    await encoder.close();
    const [after] = await encoder.encodeTokens(['fever']);
    expect(after!.vectors.map((vector) => [...vector])).toEqual(before!.vectors.map((vector) => [...vector]));
    await encoder.close();
  });
});
