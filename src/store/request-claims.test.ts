import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { CLAIM_LEASE_MS, DEFER_MS, RequestClaims } from './request-claims.js';

const path = () => join(mkdtempSync(join(tmpdir(), 'claims-')), 'claims.sqlite');
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Commits to the claims file at `file`, counted as frames appended to its WAL (no checkpoint runs in between). */
function walFrames(file: string): () => number {
  const database = new Database(file, { readonly: true });
  const pageSize = database.pragma('page_size', { simple: true }) as number;
  database.close();
  return () => Math.floor(statSync(`${file}-wal`).size / (pageSize + 24));
}

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

  it('lets go of claims released soon together, within DEFER_MS', async () => {
    const file = path();
    const first = new RequestClaims(file);
    const second = new RequestClaims(file);
    expect([first.take('a'), first.take('b')]).toEqual([true, true]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      first.releaseSoon('a');
      await nextTurn();
      first.releaseSoon('b');
      expect([second.take('a'), second.take('b')]).toEqual([false, false]);
      vi.advanceTimersByTime(DEFER_MS);
    } finally {
      vi.useRealTimers();
    }
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
  it('takes the claims asked for in one turn together with the releases of that turn, in one transaction', async () => {
    const file = path();
    const first = new RequestClaims(file);
    const second = new RequestClaims(file);
    expect(second.take('held')).toBe(true);
    expect(first.take('mine')).toBe(true);
    const lapsed = new Database(file);
    lapsed
      .prepare('INSERT INTO claims (request_key, owner, expires_at) VALUES (?, ?, ?)')
      .run('lapsed', 'elsewhere/1/x', Date.now() - 1);
    const quiet = first.othersVersion();
    // Commits counted as frames appended to the WAL (no checkpoint runs in between).
    const pageSize = lapsed.pragma('page_size', { simple: true }) as number;
    const frames = () => Math.floor(statSync(`${file}-wal`).size / (pageSize + 24));
    const before = frames();
    // Asked for in one turn, with a release: nothing is written before the turn ends.
    first.releaseSoon('mine');
    const asked = ['a', 'b', 'c', 'held', 'lapsed'].map((key) => first.claimSoon(key));
    expect(second.take('a')).toBe(true);
    second.release('a');
    expect(frames()).toBe(before + 2); // the second connection's two commits
    const outcomes = await Promise.all(asked);
    expect(outcomes.map(({ taken, fresh }) => ({ taken, fresh }))).toEqual([
      { taken: true, fresh: true },
      { taken: true, fresh: true },
      { taken: true, fresh: true },
      { taken: false, fresh: false },
      { taken: true, fresh: false },
    ]);
    // The second connection's take and release of 'a' moved the version the claims report.
    expect(outcomes[0]!.othersVersion).not.toBe(quiet);
    expect(outcomes[0]!.othersVersion).toBe(first.othersVersion());
    // One commit for the release and the three fresh claims (the same page): one WAL frame, where
    // a commit a claim would append four; the lapsed row was taken over by a statement of its own.
    expect(frames()).toBe(before + 2 + 1 + 1);
    expect(second.take('mine')).toBe(true);
    expect([second.take('b'), second.take('c'), second.take('lapsed')]).toEqual([false, false, false]);
    // Let go of everything: claims still asked for are settled first, then let go with the rest.
    const late = first.claimSoon('d');
    first.releaseAll();
    await expect(late).resolves.toMatchObject({ taken: true, fresh: true });
    expect([second.take('b'), second.take('d')]).toEqual([true, true]);
    // Closed: a claim asked for and not yet taken fails.
    const third = new RequestClaims(file);
    const closed = third.claimSoon('e');
    third.close();
    await expect(closed).rejects.toThrow('closed');
    lapsed.close();
    first.close();
    second.close();
  });

  it('takes claims that can wait, asked for over several turns, in one transaction within DEFER_MS, or at once when hurried', async () => {
    const file = path();
    const first = new RequestClaims(file);
    expect(first.take('old')).toBe(true);
    const frames = walFrames(file);
    const before = frames();
    const settled: string[] = [];
    const ask = (key: string) =>
      first.claimSoon(key, { canWait: true }).then((outcome) => {
        settled.push(key);
        return outcome;
      });
    // The deferred flush's clock is the test's: turns of the loop pass, time does not.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const asked = [ask('a')];
    try {
      await nextTurn();
      first.releaseSoon('old');
      asked.push(ask('b'));
      await nextTurn();
      asked.push(ask('c'));
      await nextTurn();
      // Three turns later, nothing is written yet; DEFER_MS later, all of it.
      expect([settled, frames()]).toEqual([[], before]);
      vi.advanceTimersByTime(DEFER_MS - 1);
      expect(settled).toEqual([]);
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    expect((await Promise.all(asked)).map(({ taken, fresh }) => [taken, fresh])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
    // The release and the three claims: one commit, one frame.
    expect(frames()).toBe(before + 1);
    // Hurried: taken at the end of the turn (with one that could not wait, asked later).
    const waiting = ask('d');
    await nextTurn();
    first.hurry();
    const now = first.claimSoon('e');
    await nextTurn();
    expect(settled).toEqual(['a', 'b', 'c', 'd']);
    await expect(now).resolves.toMatchObject({ taken: true, fresh: true });
    await waiting;
    expect(frames()).toBe(before + 2);
    first.close();
  });

  it('opens a new claims file while another process holds its write lock, before the file is in WAL mode', async () => {
    // The moment six processes starting on one new home meet: SQLite answers the switch to WAL
    // with SQLITE_BUSY at once (no busy handler) while another connection holds the lock.
    const file = path();
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import Database from 'better-sqlite3';
         const database = new Database(${JSON.stringify(file)});
         database.exec('BEGIN IMMEDIATE; CREATE TABLE held (a)');
         console.log('held');
         setTimeout(() => { database.exec('COMMIT'); database.close(); }, 300);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    const claims = new RequestClaims(file);
    expect(claims.claim('k')).toEqual({ taken: true, fresh: true });
    claims.close();
    await new Promise((resolve) => holder.once('close', resolve));
  });
});

describe('model holds (run --batch, and runs without it)', () => {
  const scope = JSON.stringify(['openai', 'gpt-4.1']);
  const [host, pid] = [hostname(), process.pid];

  it('one batch holder at a time, none beside a sync one; sync holders share; let go with the claims', () => {
    const file = path();
    const [batch, sync, other] = [new RequestClaims(file), new RequestClaims(file), new RequestClaims(file)];
    expect(batch.holdModel(scope, 'batch')).toBeUndefined();
    expect(batch.holdModel(scope, 'batch')).toBeUndefined(); // its own
    expect(other.holdModel(scope, 'batch')).toEqual({ kind: 'batch', host, pid });
    expect(sync.holdModel(scope, 'sync')).toEqual({ kind: 'batch', host, pid });
    // Another model is not held.
    expect(other.holdModel(JSON.stringify(['openai', 'gpt-4.1-mini']), 'batch')).toBeUndefined();
    batch.releaseAll();
    expect(sync.holdModel(scope, 'sync')).toBeUndefined();
    expect(other.holdModel(scope, 'sync')).toBeUndefined();
    expect(batch.holdModel(scope, 'batch')).toEqual({ kind: 'sync', host, pid });
    sync.releaseAll();
    other.releaseAll();
    expect(batch.holdModel(scope, 'batch')).toBeUndefined();
    for (const claims of [batch, sync, other]) claims.close();
  });

  it('a hold of a process gone (killed) is taken over at once; one of another machine when its lease lapsed', () => {
    const file = path();
    const claims = new RequestClaims(file);
    const gone = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    const database = new Database(file);
    const put = database.prepare(
      'INSERT OR REPLACE INTO claims (request_key, owner, expires_at) VALUES (?, ?, ?)',
    );
    put.run(`hold batch ${scope}`, `${host}/${gone}/x`, Date.now() + CLAIM_LEASE_MS);
    expect(claims.holdModel(scope, 'sync')).toBeUndefined();
    claims.releaseAll();
    const lease = Date.now() + CLAIM_LEASE_MS;
    put.run(`hold batch ${scope}`, 'elsewhere/77/y', lease);
    expect(claims.holdModel(scope, 'batch')).toEqual({ kind: 'batch', host: 'elsewhere', pid: 77 });
    expect(claims.holdModel(scope, 'batch', lease + 1)).toBeUndefined();
    // A live process of this machine keeps its hold a while past the lapse (a busy event loop).
    claims.releaseAll();
    put.run(`hold batch ${scope}`, `${host}/${pid}/z`, lease);
    expect(claims.holdModel(scope, 'batch', lease + 1)).toEqual({ kind: 'batch', host, pid });
    database.close();
    claims.close();
  });
});
