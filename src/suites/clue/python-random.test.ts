import { describe, expect, it } from 'vitest';
import { PythonRandom } from './python-random.js';

// Expected values printed by CPython 3.11's random module (the reference implementation).
describe('PythonRandom', () => {
  it('random() after seed(1) and seed(0)', () => {
    const random = new PythonRandom(1);
    expect([random.random(), random.random(), random.random()]).toEqual([
      0.13436424411240122, 0.8474337369372327, 0.763774618976614,
    ]);
    expect(new PythonRandom(0).random()).toBe(0.8444218515250481);
  });

  it('getrandbits', () => {
    const random = new PythonRandom(1);
    expect([1, 5, 31, 32].map((bits) => random.getrandbits(bits))).toEqual([0, 18, 1819850095, 3445702192]);
  });

  it('shuffle, including a seed wider than 32 bits', () => {
    expect(new PythonRandom(1).shuffle(Array.from({ length: 20 }, (_, index) => index))).toEqual([
      11, 5, 17, 19, 9, 0, 16, 1, 15, 6, 10, 13, 14, 12, 7, 3, 8, 2, 18, 4,
    ]);
    expect(
      new PythonRandom(12345678901234567890n).shuffle(Array.from({ length: 10 }, (_, index) => index)),
    ).toEqual([0, 3, 4, 1, 5, 2, 6, 7, 9, 8]);
  });
});
