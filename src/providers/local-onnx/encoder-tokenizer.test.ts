import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTinyOnnxModel } from '../../../test/support/tiny-onnx-model.js';
import {
  llama3TokenizerPath as llama3,
  writeLlama3WithBeginOfText,
  writeWordPieceTokenizer,
} from '../../../test/support/tokenizer-files.js';
import { EncoderTokenizer } from './encoder-tokenizer.js';

const texts = [
  'Fever cough',
  '',
  '   ',
  'rash [SEP] pain [CLS]',
  '发热咳 pain, rash; FEVER!',
  'Café naïve résumé — coughing ×3 at 38.5 °C',
  'fever cough rash pain fever cough rash pain fever cough rash pain',
  'Patient: 72-year-old man.\n\nHistory:\tCOPD, CHF (EF 35%), T2DM on metformin 1000 mg b.i.d.',
  '患者男性，72岁，因“反复咳嗽、咳痰10年，加重伴气促3天”入院。',
];

const loaded = new Map<string, Promise<EncoderTokenizer>>();
/** Each tokenizer loaded once (the pure-JS Llama 3 takes about a second). */
function load(path: string, prefer: 'native' | 'in-thread'): Promise<EncoderTokenizer> {
  const key = `${prefer} ${path}`;
  if (!loaded.has(key)) loaded.set(key, EncoderTokenizer.load(path, { prefer }));
  return loaded.get(key)!;
}

async function bothWays(path: string, maxLength: number) {
  const native = await load(path, 'native');
  const inThread = await load(path, 'in-thread');
  expect(native.path).toBe('native');
  expect(inThread.path).toBe('in-thread');
  return {
    native: await native.tokenize(texts, maxLength),
    inThread: await inThread.tokenize(texts, maxLength),
  };
}

describe('EncoderTokenizer', () => {
  it('gives the pure-JS ids and content ranges from the native tokenizer on a WordPiece tokenizer, truncated or not', async () => {
    const path = join(writeTinyOnnxModel(), 'tokenizer.json');
    for (const maxLength of [512, 6, 3, 2]) {
      const { native, inThread } = await bothWays(path, maxLength);
      expect(native).toEqual(inThread);
      for (const item of native) expect(item.ids.length).toBeLessThanOrEqual(Math.max(maxLength, 2));
    }
    // Hand-checked: [CLS]=2 fever=4 cough=5 [SEP]=3; the special-token text inside stays content.
    const { native } = await bothWays(path, 4);
    expect(native[0]).toEqual({ ids: [2, 4, 5, 3], start: 1, end: 3 });
    expect(native[1]).toEqual({ ids: [2, 3], start: 2, end: 2 });
    expect(native[6]).toEqual({ ids: [2, 4, 5, 3], start: 1, end: 3 });
  });

  it('gives the pure-JS ids on a real byte-level BPE tokenizer (Llama 3), with and without a begin-of-text template', async () => {
    const templatedPath = writeLlama3WithBeginOfText();
    for (const path of [llama3, templatedPath]) {
      for (const maxLength of [8192, 12, 1]) {
        const { native, inThread } = await bothWays(path, maxLength);
        expect(native).toEqual(inThread);
      }
    }
    const plain = await (await load(llama3, 'native')).tokenize(['Fever cough'], 8192);
    const templated = await (await load(templatedPath, 'native')).tokenize(['Fever cough'], 8192);
    expect(templated[0]).toEqual({
      ids: [128000, ...plain[0]!.ids],
      start: 1,
      end: 1 + plain[0]!.ids.length,
    });
  });

  it('declares the padding id and the maximum length the pure-JS port reads, without building it', async () => {
    // Llama 3: no pad token (the end-of-text one stands in), a "no limit" model_max_length.
    for (const prefer of ['native', 'in-thread'] as const) {
      const tokenizer = await load(llama3, prefer);
      expect([tokenizer.padId, tokenizer.declaredMaxLength]).toEqual([128001, undefined]);
    }
    const folder = mkdtempSync(join(tmpdir(), 'medbench-pad-'));
    const path = writeWordPieceTokenizer(folder, ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'fever', '<end>']);
    const variants: Array<[Record<string, unknown>, number, number | undefined]> = [
      [{ pad_token: '[PAD]', model_max_length: 512 }, 0, 512],
      [{ pad_token: { __type: 'AddedToken', content: '[SEP]' }, model_max_length: 128 }, 3, 128],
      [{ eos_token: '<end>' }, 5, undefined],
      [{ pad_token: 'unknown-token', model_max_length: 1e30 }, 0, undefined],
      [{}, 0, undefined],
    ];
    for (const [config, padId, maxLength] of variants) {
      writeFileSync(
        join(folder, 'tokenizer_config.json'),
        JSON.stringify({ tokenizer_class: 'BertTokenizer', ...config }),
      );
      for (const prefer of ['native', 'in-thread'] as const) {
        const tokenizer = await EncoderTokenizer.load(path, { prefer });
        expect([tokenizer.path, tokenizer.padId, tokenizer.declaredMaxLength]).toEqual([
          prefer,
          padId,
          maxLength,
        ]);
      }
    }
  });

  it('refuses a tokenizer_config.json that is not an object, on either path (fuzzing found null)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'medbench-config-'));
    const path = writeWordPieceTokenizer(folder, ['[PAD]', '[UNK]', '[CLS]', '[SEP]']);
    const config = join(folder, 'tokenizer_config.json');
    const cases: Array<[string, string]> = [
      ['null', 'null'],
      ['[1]', 'a list ([1])'],
      ['"x"', 'the string "x"'],
    ];
    for (const [text, found] of cases)
      for (const prefer of ['native', 'in-thread'] as const) {
        writeFileSync(config, text);
        await expect(EncoderTokenizer.load(path, { prefer })).rejects.toMatchObject({
          code: 'MODEL_FOLDER_INVALID',
          message: expect.stringContaining(`${config}: expected a JSON object; found ${found}.`),
        });
      }
  });

  it('has no native tokenizer for a file it cannot read (the pure-JS one is used)', async () => {
    const { loadNativeTokenizer } = await import('../../io/native-tokenizer.js');
    expect(await loadNativeTokenizer(llama3)).toBeDefined();
    expect(await loadNativeTokenizer('/no/such/tokenizer.json')).toBeUndefined();
  });

  it('refuses a template the Rust library would abort on, on either path, naming the file and the token', async () => {
    const path = writeWordPieceTokenizer(
      mkdtempSync(join(tmpdir(), 'medbench-template-')),
      ['[PAD]', '[UNK]', '[CLS]', '[SEP]'],
      {
        editTemplate: (template) => {
          delete template.special_tokens['[CLS]'];
        },
      },
    );
    for (const prefer of ['native', 'in-thread'] as const)
      await expect(EncoderTokenizer.load(path, { prefer })).rejects.toMatchObject({
        code: 'MODEL_FOLDER_INVALID',
        message: `${path}: post_processor.single[0] places the special token "[CLS]", which post_processor.special_tokens does not define.`,
      });
  });
});
