import { describe, expect, it } from 'vitest';
import { listsEqual } from './list-match.js';
import { containsAny, lowerCase, matchesAny, pythonString, removeAsciiSpaces } from './string-match.js';

describe('string matching', () => {
  it('removes only U+0020', () => {
    expect(removeAsciiSpaces('a b\tc\u3000d\u00a0e\nf')).toBe('ab\tc\u3000d\u00a0e\nf');
  });

  it('matches case-insensitively for en and without spaces for zh', () => {
    expect(matchesAny('TEN STONEHEARTS', ["'Ten Stonehearts'", 'Ten Stonehearts'], lowerCase)).toBe(true);
    expect(matchesAny('Ten  Stonehearts', ['Ten Stonehearts'], lowerCase)).toBe(false);
    expect(matchesAny('阿 哈', ['阿哈'], removeAsciiSpaces)).toBe(true);
    expect(matchesAny('阿\u3000哈', ['阿哈'], removeAsciiSpaces)).toBe(false);
  });

  it('finds an accepted answer inside the raw output (SSM)', () => {
    expect(containsAny('I think it is shuweng, the manager', ['Shuweng'], lowerCase)).toBe(true);
    expect(containsAny('答案是 尿 常规', ['尿常规'], removeAsciiSpaces)).toBe(true);
    expect(containsAny('no idea', ['Shuweng'], lowerCase)).toBe(false);
  });

  it("gives Python's str() of parsed values", () => {
    expect(pythonString(15)).toBe('15');
    expect(pythonString(1.5)).toBe('1.5');
    expect(pythonString(true)).toBe('True');
    expect(pythonString(null)).toBe('None');
    expect(pythonString([])).toBe('[]');
    expect(pythonString(['a', 1])).toBe("['a', 1]");
    expect(pythonString({ a: "it's" })).toBe(`{'a': "it's"}`);
  });

  it('compares lists with element types', () => {
    expect(listsEqual([1, 2, 3], [1, 2, 3])).toBe(true);
    expect(listsEqual(['1', 2, 3], [1, 2, 3])).toBe(false);
    expect(listsEqual([1, 3, 2], [1, 2, 3])).toBe(false);
    expect(listsEqual('123', [1, 2, 3])).toBe(false);
  });
});
