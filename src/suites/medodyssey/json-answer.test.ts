import { describe, expect, it } from 'vitest';
import { extractJsonAnswer, findFlatJsonObjects } from './json-answer.js';

const keys = ['answer', '答案'];

describe('extractJsonAnswer', () => {
  it('reads a plain object', () => {
    expect(extractJsonAnswer('{"answer": "Shuweng"}', keys)).toEqual({ wellFormed: true, value: 'Shuweng' });
  });

  it('strips ```json fences and surrounding prose', () => {
    const raw = 'Here you go:\n```json\n{"答案": "阿哈"}\n```\nHope it helps.';
    expect(extractJsonAnswer(raw, keys)).toEqual({ wellFormed: true, value: '阿哈' });
  });

  it('is bad format with two answer objects, even if they agree', () => {
    expect(extractJsonAnswer('{"answer": "a"} and again {"answer": "a"}', keys)).toEqual({
      wellFormed: false,
    });
  });

  it('ignores objects without the answer key', () => {
    expect(extractJsonAnswer('{"note": 1} {"answer": "x"}', keys)).toEqual({ wellFormed: true, value: 'x' });
  });

  it('cannot see an answer inside a nested object (flat spans only)', () => {
    // The only flat span is the inner {"answer": "x"}, which has the key.
    expect(extractJsonAnswer('{"result": {"answer": "x"}}', keys)).toEqual({ wellFormed: true, value: 'x' });
    // Braces inside the answer break the flat span: nothing parses.
    expect(extractJsonAnswer('{"answer": "use {braces}"}', keys)).toEqual({ wellFormed: false });
  });

  it('is bad format with no object at all, or invalid JSON', () => {
    expect(extractJsonAnswer('The answer is Shuweng.', keys)).toEqual({ wellFormed: false });
    expect(extractJsonAnswer("{'answer': 'single quotes'}", keys)).toEqual({ wellFormed: false });
    expect(extractJsonAnswer('', keys)).toEqual({ wellFormed: false });
  });

  it('keeps non-string values as parsed', () => {
    expect(extractJsonAnswer('{"little_star": [1, 2, 3]}', ['little_star'])).toEqual({
      wellFormed: true,
      value: [1, 2, 3],
    });
    expect(extractJsonAnswer('{"answer": 15}', keys)).toEqual({ wellFormed: true, value: 15 });
  });

  it('finds only flat objects', () => {
    expect(findFlatJsonObjects('[{"a": 1}, {"b": [2]}] {x}')).toEqual([{ a: 1 }, { b: [2] }]);
  });
});
