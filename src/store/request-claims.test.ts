import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, RequestClaims } from './request-claims.js';

const path = () => join(mkdtempSync(join(tmpdir(), 'claims-')), 'claims.sqlite');

describe('request claims', () => {
  it('one holder at a time; free again when released, lapsed, or its process is gone', () => {
    const file = path();
    const first = new RequestClaims(file);
    const second = new RequestClaims(file);
    expect(first.take('k')).toBe(true);
    expect(second.take('k')).toBe(false);
    expect(first.take('k')).toBe(true); // its own
    first.release('k');
    expect(second.take('k')).toBe(true);
    // Lapsed: a later clock sees the lease over.
    expect(first.take('k', Date.now() + CLAIM_LEASE_MS + 1)).toBe(true);
    first.releaseAll();
    // A claim left by a process that no longer runs (here: one that has exited).
    const gone = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    const database = new Database(file);
    database
      .prepare('INSERT INTO claims (request_key, owner, expires_at) VALUES (?, ?, ?)')
      .run('left', `${first.owner.split('/')[0]}/${gone}/x`, Date.now() + CLAIM_LEASE_MS);
    database.close();
    expect(second.take('left')).toBe(true);
    first.close();
    second.close();
  });

  it('lets go of claims released soon together, at the end of the turn', async () => {
    const file = path();
    const first = new RequestClaims(file);
    const second = new RequestClaims(file);
    expect([first.take('a'), first.take('b')]).toEqual([true, true]);
    first.releaseSoon('a');
    first.releaseSoon('b');
    expect([second.take('a'), second.take('b')]).toEqual([false, false]);
    await new Promise((resolve) => setImmediate(resolve));
    expect([second.take('a'), second.take('b')]).toEqual([true, true]);
    // Closing lets go of what waits.
    expect(first.take('c')).toBe(true);
    first.releaseSoon('c');
    first.close();
    expect(second.take('c')).toBe(true);
    second.close();
  });
});
