import { describe, expect, it } from 'vitest';
import { flatFields } from './flat-fields.js';

describe('flatFields', () => {
  it('flattens nested objects and arrays of objects to dotted keys, joins lists of plain values', () => {
    const parameters = {
      temperature: 0,
      task: null,
      stop: [],
      release: {
        files: [{ file: 'niah_result/en_gpt-4o_v1.jsonl', missing: ['4', '5'], setting: null }],
        contentHash: 'abc',
      },
      extra: {},
      flags: [true, false],
    };
    expect(flatFields(parameters)).toEqual([
      { key: 'temperature', text: '0' },
      { key: 'task', text: '—' },
      { key: 'stop', text: '(none)' },
      { key: 'release.files.0.file', text: 'niah_result/en_gpt-4o_v1.jsonl' },
      { key: 'release.files.0.missing', text: '4, 5' },
      { key: 'release.files.0.setting', text: '—' },
      { key: 'release.contentHash', text: 'abc' },
      { key: 'extra', text: '(none)' },
      { key: 'flags', text: 'true, false' },
    ]);
  });

  it('keeps strings as they are (the page shows them as text, never as HTML)', () => {
    const hostile = '<script>alert(1)</script>{"a":1}';
    expect(flatFields({ note: hostile })).toEqual([{ key: 'note', text: hostile }]);
  });
});
