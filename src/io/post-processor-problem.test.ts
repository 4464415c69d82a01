import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TemplateJson, writeWordPieceTokenizer } from '../../test/support/tokenizer-files.js';
import { loadNativeTokenizer } from './native-tokenizer.js';
import { postProcessorProblem } from './post-processor-problem.js';

const vocabulary = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', 'fever', 'cough'];

/** A WordPiece tokenizer.json whose template `edit` has changed; returns its path. */
function tokenizerWith(edit: (template: TemplateJson) => void): string {
  return writeWordPieceTokenizer(mkdtempSync(join(tmpdir(), 'medbench-template-')), vocabulary, {
    editTemplate: edit,
  });
}

const withoutCls = (template: TemplateJson) => {
  delete template.special_tokens['[CLS]'];
};

const problemOf = (edit: (template: TemplateJson) => void) =>
  postProcessorProblem(JSON.parse(readFileSync(tokenizerWith(edit), 'utf8')));

describe('postProcessorProblem', () => {
  it('finds what would make the Rust tokenizers panic, in a template or inside a Sequence', () => {
    expect(problemOf(() => {})).toBeUndefined();
    expect(problemOf(withoutCls)).toBe(
      'post_processor.single[0] places the special token "[CLS]", which post_processor.special_tokens does not define',
    );
    expect(problemOf((template) => template.special_tokens['[SEP]']!.tokens.push('[SEP]'))).toBe(
      'post_processor.special_tokens["[SEP]"] has 1 ids but 2 tokens',
    );
    expect(
      problemOf((template) => {
        template.single[1]!.Sequence!.id = 'B';
      }),
    ).toBe('post_processor.single[1] places the second sequence ($B), which a single text does not have');
    // A name Object.prototype has is not a definition.
    expect(
      problemOf((template) => {
        template.pair[2]!.SpecialToken!.id = 'toString';
      }),
    ).toBe(
      'post_processor.pair[2] places the special token "toString", which post_processor.special_tokens does not define',
    );
    const broken = JSON.parse(readFileSync(tokenizerWith(withoutCls), 'utf8')).post_processor;
    const inSequence = { post_processor: { type: 'Sequence', processors: [{ type: 'ByteLevel' }, broken] } };
    expect(postProcessorProblem(inSequence)).toMatch(/^post_processor\.processors\[1\]\.single\[0\] places/);
    for (const fine of [
      {},
      null,
      'text',
      { post_processor: null },
      { post_processor: { type: 'BertProcessing' } },
    ])
      expect(postProcessorProblem(fine)).toBeUndefined();
  });

  it('is what the library does not survive: encoding with such a file aborts the process', () => {
    const script = `const { Tokenizer } = require('@anush008/tokenizers');
      Tokenizer.fromFile(${JSON.stringify(tokenizerWith(withoutCls))})
        .encodeBatch(['fever cough'], { addSpecialTokens: true })
        .then(() => console.log('encoded'), (error) => console.log('rejected', error.message));`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stdout).toBe('');
    expect(child.stderr).toContain('no entry found for key');
    expect(child.status === 0 && child.signal === null).toBe(false);
  });

  it('keeps such a file from the native tokenizer', async () => {
    expect(await loadNativeTokenizer(tokenizerWith(withoutCls))).toBeUndefined();
    expect(await loadNativeTokenizer(tokenizerWith(() => {}))).toBeDefined();
  });
});
