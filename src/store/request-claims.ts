import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { fileError, isFileSystemError, MedbenchError } from '../core/errors.js';
import { BUSY_TIMEOUT_MS, whileBusy } from './open-database.js';

/** A claim asked for: `fresh` when no row held the key before; `othersVersion` read with it. */
export interface ClaimOutcome {
  taken: boolean;
  fresh: boolean;
  othersVersion: number;
}

/** A claim lapses this long after its last renewal: a killed process blocks no one for longer. */
export const CLAIM_LEASE_MS = 30_000;

/**
 * A hold of a process of this machine whose pid still runs counts this long past its lapse (its
 * event loop may have been busy, e.g. preparing a large batch): only then is the pid taken to
 * have been reused.
 */
const SAME_HOST_GRACE_MS = 600_000;

/** Why a model is held: its batches are being submitted (one process), or it runs without --batch (any number). */
export type ModelHoldKind = 'batch' | 'sync';

/** The live process that holds a model on this home, as `holdModel` found it. */
export interface ModelHolder {
  kind: ModelHoldKind;
  host: string;
  pid: number;
}

/**
 * How long a release, or a claim its caller does not need at once, waits for others to share its
 * transaction (each costs a dozen system calls on the claims file's locks and WAL).
 */
export const DEFER_MS = 5;
/** Claims and releases waiting past which they are written at the end of this turn. */
const DEFER_MAX = 64;

/**
 * Claims on requests, shared by every medbench process using one home: a process sends a
 * request only while it holds the claim on it, so two runs of the same configuration at once
 * pay for each answer once (the second takes the first's answer from the response cache). The
 * claims live in their own small file beside the store, so a run that fails before its first
 * answer leaves the store as it was. A claim is released when its answer is stored or its
 * request failed, and lapses after `CLAIM_LEASE_MS` without renewal.
 */
export class RequestClaims {
  /** This runner's claims: host, process id and a random part (one owner per runner). */
  readonly owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  private readonly database: Database.Database;
  private readonly takeStatement: Database.Statement<
    [{ key: string; owner: string; expires: number; now: number }]
  >;
  private readonly releaseStatement: Database.Statement<[string, string]>;
  private readonly renewStatement: Database.Statement<[number, string]>;
  private readonly releaseAllStatement: Database.Statement<[string]>;
  private readonly ownerStatement: Database.Statement<[string], { owner: string }>;
  private readonly takeOverStatement: Database.Statement<
    [{ key: string; owner: string; expires: number; holder: string }]
  >;
  private readonly insertStatement: Database.Statement<[{ key: string; owner: string; expires: number }]>;
  private readonly dataVersionStatement: Database.Statement<[], number>;
  private readonly holdsStatement: Database.Statement<
    [{ batchKey: string; from: string; to: string }],
    { request_key: string; owner: string; expires_at: number }
  >;
  private readonly dropStatement: Database.Statement<[string]>;
  private readonly putStatement: Database.Statement<[{ key: string; owner: string; expires: number }]>;
  /** Answer caches using this connection now: with more than one, `othersVersion` cannot speak for each. */
  private users = 0;

  constructor(path: string) {
    try {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.database = new Database(path);
      this.database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // As for the store: the switch of a new file to WAL is answered SQLITE_BUSY at once while
      // another process (opening the same new home) holds the file's lock.
      whileBusy(() => this.database.pragma('journal_mode = WAL'));
      this.database.pragma('synchronous = NORMAL');
      whileBusy(() =>
        this.database.exec(
          'CREATE TABLE IF NOT EXISTS claims (request_key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID',
        ),
      );
    } catch (error) {
      if (isFileSystemError(error)) throw fileError(error, { path, action: 'write' });
      throw new MedbenchError({
        code: 'STORE_ERROR',
        message: `Cannot open the request claims at ${path}: ${(error as Error).message}`,
        hint: 'Check that the folder is writable, or choose another with --home / MEDBENCH_HOME.',
        cause: error,
      });
    }
    // Takes the claim when it is free, lapsed or already ours (one statement: atomic).
    this.takeStatement = this.database.prepare(
      `INSERT INTO claims (request_key, owner, expires_at) VALUES (@key, @owner, @expires)
         ON CONFLICT (request_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE claims.owner = excluded.owner OR claims.expires_at <= @now`,
    );
    this.releaseStatement = this.database.prepare('DELETE FROM claims WHERE request_key = ? AND owner = ?');
    this.renewStatement = this.database.prepare('UPDATE claims SET expires_at = ? WHERE owner = ?');
    this.releaseAllStatement = this.database.prepare('DELETE FROM claims WHERE owner = ?');
    this.ownerStatement = this.database.prepare('SELECT owner FROM claims WHERE request_key = ?');
    this.takeOverStatement = this.database.prepare(
      'UPDATE claims SET owner = @owner, expires_at = @expires WHERE request_key = @key AND owner = @holder',
    );
    this.insertStatement = this.database.prepare(
      'INSERT INTO claims (request_key, owner, expires_at) VALUES (@key, @owner, @expires) ON CONFLICT (request_key) DO NOTHING',
    );
    this.dataVersionStatement = this.database.prepare<[], number>('PRAGMA data_version').pluck();
    this.holdsStatement = this.database.prepare(
      'SELECT request_key, owner, expires_at FROM claims WHERE request_key = @batchKey OR (request_key >= @from AND request_key < @to)',
    );
    this.dropStatement = this.database.prepare('DELETE FROM claims WHERE request_key = ?');
    this.putStatement = this.database.prepare(
      `INSERT INTO claims (request_key, owner, expires_at) VALUES (@key, @owner, @expires)
         ON CONFLICT (request_key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at`,
    );
  }

  /**
   * Holds the model `scope` names on this home, in one `BEGIN IMMEDIATE` transaction (so two
   * processes asking at once are served one after the other): for `batch` only while no other live
   * process holds it at all (one process at a time chooses, submits and drives a model's batches),
   * for `sync` while no other live process holds it for batches (runs without --batch share it, as
   * they share requests through their claims). The hold is a row of this runner's claims: renewed
   * by `renew`, let go by `releaseAll`; a killed holder's is taken over as its claims are. Returns
   * the live holder in the way, or undefined once held.
   */
  holdModel(scope: string, kind: ModelHoldKind, now = Date.now()): ModelHolder | undefined {
    const batchKey = `hold batch ${scope}`;
    // Every sync hold of the scope: keys from `hold sync <scope> ` up to the next character.
    const from = `hold sync ${scope} `;
    const to = `hold sync ${scope}!`;
    return this.database
      .transaction((): ModelHolder | undefined => {
        let blocker: ModelHolder | undefined;
        for (const row of this.holdsStatement.all({ batchKey, from, to })) {
          if (row.owner === this.owner) continue;
          if (!RequestClaims.holds(row.owner, row.expires_at, now)) {
            this.dropStatement.run(row.request_key);
            continue;
          }
          const held: ModelHoldKind = row.request_key === batchKey ? 'batch' : 'sync';
          if (kind === 'batch' || held === 'batch') blocker ??= holderOf(row.owner, held);
        }
        if (blocker) return blocker;
        const key = kind === 'batch' ? batchKey : `${from}${this.owner}`;
        this.putStatement.run({ key, owner: this.owner, expires: now + CLAIM_LEASE_MS });
        return undefined;
      })
      .immediate();
  }

  /**
   * Whether a hold still stands: not lapsed, and its process not gone; a process of this machine
   * whose pid runs keeps it a while past its lapse (`SAME_HOST_GRACE_MS`).
   */
  private static holds(owner: string, expiresAt: number, now: number): boolean {
    if (RequestClaims.isGone(owner)) return false;
    const grace = owner.split('/')[0] === hostname() ? SAME_HOST_GRACE_MS : 0;
    return expiresAt + grace > now;
  }

  /**
   * A number that changes whenever another connection (another process, or another runner of
   * this one) has committed a change to the claims since the last call: it has taken or let go
   * of a claim. Unchanged, no other process has sent a request or let one go in the meantime.
   */
  othersVersion(): number {
    return this.dataVersionStatement.get()!;
  }

  /** One more answer cache uses these claims; the function it gets says it stopped. */
  attach(): () => void {
    this.users++;
    let attached = true;
    return () => {
      if (attached) this.users--;
      attached = false;
    };
  }

  /** Whether a single answer cache uses this connection (so `othersVersion` covers every other runner). */
  get alone(): boolean {
    return this.users <= 1;
  }

  /**
   * Takes the claim on `requestKey` as `take` does; `fresh` when no row held the key before (no
   * process had it, nor had left it unreleased).
   */
  claim(requestKey: string, now = Date.now()): { taken: boolean; fresh: boolean } {
    const expires = now + CLAIM_LEASE_MS;
    if (this.insertStatement.run({ key: requestKey, owner: this.owner, expires }).changes === 1)
      return { taken: true, fresh: true };
    return { taken: this.take(requestKey, now), fresh: false };
  }

  /** The claims file of the store at `storePath`. */
  static beside(storePath: string): RequestClaims {
    return new RequestClaims(
      storePath === ':memory:' ? ':memory:' : join(dirname(storePath), 'claims.sqlite'),
    );
  }

  /**
   * True when this runner now holds the claim on `requestKey`: it was free, lapsed, ours, or held
   * by a process of this machine that is gone (killed: it could not let go).
   */
  take(requestKey: string, now = Date.now()): boolean {
    const expires = now + CLAIM_LEASE_MS;
    if (this.takeStatement.run({ key: requestKey, owner: this.owner, expires, now }).changes === 1)
      return true;
    const holder = this.ownerStatement.get(requestKey)?.owner;
    if (!holder || !RequestClaims.isGone(holder)) return false;
    return this.takeOverStatement.run({ key: requestKey, owner: this.owner, expires, holder }).changes === 1;
  }

  /** Whether the owner was a process of this machine that no longer runs. */
  private static isGone(owner: string): boolean {
    const [host, pid] = owner.split('/');
    if (host !== hostname() || !pid) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  /**
   * Claims let go, and claims asked for, waiting for their transaction: at the end of this turn of
   * the event loop when a claim is needed at once, else within `DEFER_MS` with the others.
   */
  private releasing: string[] = [];
  private asked: Array<{ key: string; settle: (outcome: ClaimOutcome | Error) => void }> = [];
  /** The flush at the end of this turn (a claim needed at once). */
  private turnEnd: NodeJS.Immediate | undefined;
  /** The flush of claims and releases that can wait. */
  private deferred: NodeJS.Timeout | undefined;

  /** Flushes at the end of this turn; `urgent` false: within `DEFER_MS`, unless many wait. */
  private schedule(urgent: boolean): void {
    if (urgent || this.asked.length + this.releasing.length >= DEFER_MAX) {
      this.turnEnd ??= setImmediate(this.flush);
      return;
    }
    if (!this.turnEnd) this.deferred ??= setTimeout(this.flush, DEFER_MS);
  }

  private readonly flush = (): void => {
    if (this.turnEnd) clearImmediate(this.turnEnd);
    if (this.deferred) clearTimeout(this.deferred);
    this.turnEnd = undefined;
    this.deferred = undefined;
    const keys = this.releasing;
    const asked = this.asked;
    this.releasing = [];
    this.asked = [];
    if (keys.length === 0 && asked.length === 0) return;
    const now = Date.now();
    const expires = now + CLAIM_LEASE_MS;
    let inserted: boolean[];
    let version: number;
    try {
      [inserted, version] = this.database.transaction((): [boolean[], number] => {
        for (const key of keys) this.releaseStatement.run(key, this.owner);
        const fresh = asked.map(
          ({ key }) => this.insertStatement.run({ key, owner: this.owner, expires }).changes === 1,
        );
        // Inside the transaction: as it would read right after the commit (no other connection
        // can commit while this one holds the write lock; its own commits do not count).
        return [fresh, this.dataVersionStatement.get()!];
      })();
    } catch (error) {
      // Nothing was written: the releases wait for the next turn; the claims fail.
      this.releasing.push(...keys);
      for (const { settle } of asked) settle(error as Error);
      return;
    }
    for (const [index, { key, settle }] of asked.entries()) {
      if (inserted[index]) {
        settle({ taken: true, fresh: true, othersVersion: version });
        continue;
      }
      try {
        // Held (by another process, a lapsed one, or this runner): taken as `take` does.
        settle({ taken: this.take(key, now), fresh: false, othersVersion: this.othersVersion() });
      } catch (error) {
        settle(error as Error);
      }
    }
  };

  release(requestKey: string): void {
    this.releaseStatement.run(requestKey, this.owner);
  }

  /**
   * Lets go of a claim within `DEFER_MS`, in one transaction with the others let go or asked for
   * meanwhile (a process waiting for it finds the answer in the store first: it looks there, too).
   */
  releaseSoon(requestKey: string): void {
    this.releasing.push(requestKey);
    this.schedule(false);
  }

  /**
   * `claim` at the end of this turn of the event loop, in one transaction with the other claims
   * asked for and let go in it (each transaction costs a dozen system calls on the claims file's
   * locks and WAL: one a turn instead of one a request). `othersVersion` is read in that
   * transaction. Rejects with the SQLite error that undid the transaction. `canWait`: the caller
   * cannot send before a while (its slot is busy): the claim waits up to `DEFER_MS` for others to
   * share its transaction, unless `hurry` is called.
   */
  claimSoon(requestKey: string, options: { canWait?: boolean } = {}): Promise<ClaimOutcome> {
    return new Promise<ClaimOutcome>((resolve, reject) => {
      this.asked.push({
        key: requestKey,
        settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
      });
      this.schedule(!options.canWait);
    });
  }

  /** The claims asked for that could wait are needed now: taken at the end of this turn. */
  hurry(): void {
    if (this.asked.length > 0) this.schedule(true);
  }

  /** Lets go of every claim this runner still holds. */
  releaseAll(): void {
    // Claims still asked for are settled first (and let go with the rest).
    this.releasing = [];
    this.flush();
    this.releaseAllStatement.run(this.owner);
  }

  /** Extends every claim this process holds (called periodically while requests are in flight). */
  renew(now = Date.now()): void {
    this.renewStatement.run(now + CLAIM_LEASE_MS, this.owner);
  }

  close(): void {
    const asked = this.asked;
    this.asked = [];
    this.flush();
    for (const { settle } of asked) settle(new Error('the request claims were closed'));
    this.database.close();
  }
}

/** The holder an owner string (`host/pid/random`) names. */
function holderOf(owner: string, kind: ModelHoldKind): ModelHolder {
  const [host = '', pid = ''] = owner.split('/');
  return { kind, host, pid: Number(pid) };
}
