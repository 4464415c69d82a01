import { describe, expect, it } from 'vitest';
import { answerWithoutThinking } from './answer-text.js';

describe('answerWithoutThinking', () => {
  it('leaves output without think tags as it is, whitespace included', () => {
    expect(answerWithoutThinking('  {"answer": "A"}\n')).toBe('  {"answer": "A"}\n');
    expect(answerWithoutThinking('')).toBe('');
  });

  it('removes every closed block, wherever it is', () => {
    expect(answerWithoutThinking('<think>\nB? no.\n</think>\n\nA')).toBe('A');
    expect(answerWithoutThinking('<think>x</think>A<think>y</think>')).toBe('A');
    expect(answerWithoutThinking('<think></think>A')).toBe('A');
  });

  it('an unclosed block ends the answer where it opens (cut off while thinking: no answer)', () => {
    expect(answerWithoutThinking('<think>The answer is A, but')).toBe('');
    expect(answerWithoutThinking('<think>x</think>A <think>more')).toBe('A');
  });

  it('a closing tag without its opening (opened by the chat template) ends the thinking', () => {
    expect(answerWithoutThinking('maybe B…\n</think>\n\nA')).toBe('A');
  });
});
