import { describe, expect, it } from 'vitest';
import { textDiff } from './text-diff.js';

describe('textDiff', () => {
  it('marks the words each output lacks, keeping the rest', () => {
    const { left, right } = textDiff('The answer is aspirin.', 'The answer is heparin.');
    expect(left).toEqual([
      { text: 'The answer is ', changed: false },
      { text: 'aspirin', changed: true },
      { text: '.', changed: false },
    ]);
    expect(right.map((part) => part.text).join('')).toBe('The answer is heparin.');
    expect(right.filter((part) => part.changed).map((part) => part.text)).toEqual(['heparin']);
  });

  it('compares Chinese character by character', () => {
    const { left, right } = textDiff('患者林晚舟', '患者林晚秋');
    expect(left.filter((part) => part.changed).map((part) => part.text)).toEqual(['舟']);
    expect(right.filter((part) => part.changed).map((part) => part.text)).toEqual(['秋']);
  });

  it('gives identical and empty texts no changed part', () => {
    expect(textDiff('same', 'same').left).toEqual([{ text: 'same', changed: false }]);
    expect(textDiff('', 'new').left).toEqual([]);
    expect(textDiff('', 'new').right).toEqual([{ text: 'new', changed: true }]);
  });
});
