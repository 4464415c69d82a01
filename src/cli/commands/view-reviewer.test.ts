import { describe, expect, it } from 'vitest';
import { reviewerNameProblem } from '../../core/grade-rules.js';
import { reviewerName } from './view-reviewer.js';

describe('reviewerName', () => {
  it('takes a name trimmed, and refuses an empty, overlong or odd one with what to give instead', () => {
    expect(reviewerName('  A. Smith ')).toBe('A. Smith');
    expect(reviewerName('zhang.wei@clinic')).toBe('zhang.wei@clinic');
    expect(reviewerName("Dr. O'Brien")).toBe("Dr. O'Brien");
    expect(reviewerName('Jürgen Müller-Lüdenscheidt')).toBe('Jürgen Müller-Lüdenscheidt');
    for (const [name, problem] of [
      ['   ', /is empty/],
      ['x'.repeat(65), /is 65 characters long \(at most 64\)/],
      ['<script>', /has characters other than letters/],
      ['a,b', /has characters other than letters/],
      ['-alice', /starts with one of those/],
      ['alice\nbob', /has characters other than/],
    ] as const)
      expect(() => reviewerName(name), name).toThrow(problem);
    expect(() => reviewerName('')).toThrow(
      expect.objectContaining({ code: 'USAGE', hint: expect.stringContaining('--reviewer') }),
    );
  });

  it('is the rule import grades checks reviewer cells by (reviewerNameProblem): one rule, one message', () => {
    for (const name of ['ann', "Dr. O'Brien", '<script>x</script>', '=cmd', '+1', '@ann', 'x'.repeat(65)]) {
      const problem = reviewerNameProblem(name);
      if (problem === undefined) expect(reviewerName(name)).toBe(name);
      else expect(() => reviewerName(name), name).toThrow(`${JSON.stringify(name)} ${problem}.`);
    }
    // Nothing a spreadsheet reads as a formula starts a name (a CSV cell carries it as it is).
    for (const start of ['=', '+', '-', '@', '\t', '\r', "'"])
      expect(reviewerNameProblem(`${start}ann`), start).toMatch(/starts with one of those/);
  });
});
