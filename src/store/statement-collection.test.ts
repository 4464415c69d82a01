import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Statements the garbage collector frees between turns of the event loop, as in every run. On
 * Node 24, better-sqlite3 12's Statement destructor aborted the process there (`Assertion failed:
 * (env) != nullptr` in node::RemoveEnvironmentCleanupHook): `medbench demo` died after its first
 * sample, and this script within its first turn. Run in a child process, so an abort fails the
 * test instead of ending the test runner; CI runs it on Node 22, 24 and 26.
 */
const SCRIPT = `
import Database from 'better-sqlite3';
const database = new Database(':memory:');
let prepared = 0;
function turn() {
  for (let i = 0; i < 500; i++) database.prepare('select ? + ' + (prepared++ % 5000)).get(1);
  const garbage = [];
  for (let i = 0; i < 2000; i++) garbage.push(new Array(50).fill(i));
  if (prepared < 20000) setImmediate(turn);
  else console.log('prepared ' + prepared);
}
turn();
`;

describe('SQLite statements under the garbage collector', () => {
  it(`${process.version}: thousands of statements collected between turns, and the process lives`, () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(child.stderr).not.toContain('Assertion failed');
    expect({ status: child.status, signal: child.signal, stdout: child.stdout.trim() }).toEqual({
      status: 0,
      signal: null,
      stdout: 'prepared 20000',
    });
  });
});
