import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SuitePlugin } from '../../compose/suite-plugin.js';
import { SUITES } from '../../compose/suites.js';
import { demoCommand } from './demo.js';

const folders: string[] = [];
afterEach(() => {
  process.exitCode = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A plugin whose demo part notes that it ran (and where), then says whether Ctrl-C stopped it. */
function plugin(name: string, ran: string[], interrupted?: boolean): SuitePlugin {
  return {
    suite: SUITES[0]!,
    commands: [],
    ...(interrupted === undefined
      ? {}
      : {
          demo: async (context) => {
            const session = context.session();
            session.dispose();
            context.output.stdout(`${name} `);
            ran.push(`${name} in ${context.home}`);
            return { interrupted };
          },
        }),
  };
}

describe('medbench demo', () => {
  it("runs each suite's part in order, in the home, and ends after a part Ctrl-C stopped, with exit code 130", async () => {
    const home = mkdtempSync(join(tmpdir(), 'medbench-demo-'));
    folders.push(home);
    const ran: string[] = [];
    let printed = '';
    const output = { stdout: (text: string) => (printed += text), stderr: () => {} };
    await demoCommand(
      { home },
      [
        plugin('none', ran),
        plugin('first', ran, false),
        plugin('stopped', ran, true),
        plugin('after', ran, false),
      ],
      output,
    );
    expect(ran).toEqual([`first in ${home}`, `stopped in ${home}`]);
    expect(printed).toBe('first stopped ');
    expect(process.exitCode).toBe(130);
  });

  it('leaves the exit code alone when every part finished', async () => {
    const home = mkdtempSync(join(tmpdir(), 'medbench-demo-'));
    folders.push(home);
    const ran: string[] = [];
    await demoCommand({ home }, [plugin('first', ran, false), plugin('second', ran, false)], {
      stdout: () => {},
      stderr: () => {},
    });
    expect(ran).toEqual([`first in ${home}`, `second in ${home}`]);
    expect(process.exitCode).toBeUndefined();
  });
});
