import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, temporaryHome } from './cli.js';

const home = temporaryHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('usage errors: one line and where to look, not the option list (built CLI)', () => {
  it.each([
    [
      ['report', '--suite', 'nope'],
      "error: option '--suite <suite>' argument 'nope' is invalid.",
      'medbench report',
    ],
    [['run', '--model', 'baseline', '--bogus'], "error: unknown option '--bogus'", 'medbench run'],
    [
      ['build', 'medodyssey', '--levels'],
      "error: option '--levels <list>' argument missing",
      'medbench build medodyssey',
    ],
    [['frobnicate'], "error: unknown command 'frobnicate'", 'medbench'],
  ])('medbench %j', async (args, message, command) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe(`(see ${command} --help)`);
  });

  it("a usage error of medbench's own checks ends with the same hint", async () => {
    const demo = await runCli(['--home', home, 'demo']);
    expect(demo.code).toBe(0);
    const result = await runCli(['--home', home, 'report', '--suite', 'medeureka', '--metric', 'esm']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^medbench: error \[USAGE\] .*\n {2}\(see medbench report --help\)\n$/);
  });
});
