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

  it("tells a fresh claim from one taken over, and sees other connections' claim writes", () => {
    const file = path();
    const first = new RequestClaims(file);
    const second = new RequestClaims(file);
    const quiet = first.othersVersion();
    expect(first.claim('a')).toEqual({ taken: true, fresh: true });
    expect(first.claim('a')).toEqual({ taken: true, fresh: false }); // its own, again
    first.release('a');
    // Its own writes do not move its version; another connection's do.
    expect(first.othersVersion()).toBe(quiet);
    expect(second.claim('b')).toEqual({ taken: true, fresh: true });
    expect(first.othersVersion()).not.toBe(quiet);
    // A row left by another owner (lapsed here) is taken, but not fresh.
    expect(first.claim('b', Date.now() + CLAIM_LEASE_MS + 1)).toEqual({ taken: true, fresh: false });
    expect(second.claim('b')).toEqual({ taken: false, fresh: false });
    // Attached users: alone with one, not with two.
    const detachOne = first.attach();
    expect(first.alone).toBe(true);
    const detachTwo = first.attach();
    expect(first.alone).toBe(false);
    detachTwo();
    detachTwo();
    expect(first.alone).toBe(true);
    detachOne();
    first.close();
    second.close();
  });
});
