import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { fileError, isFileSystemError, MedbenchError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';
import { asStoreDamage, checkIntegrity, checkSchema } from './store-damage.js';

/** SQLite's busy handler waits this long for another process's write lock. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * Runs `work` again while SQLite answers SQLITE_BUSY without waiting (lock escalations it refuses
 * to wait for), with short random pauses, for up to the busy timeout.
 */
export function whileBusy<T>(work: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

/** Store files this process checked whole already (a command may open its store more than once). */
const checkedFiles = new Set<string>();

/**
 * Opens (creating if needed) and migrates; concurrent processes wait for each other's lock. The
 * schema is checked; `checkIntegrity`: every page and JSON column of an existing store, too.
 */
export function openStoreFile(
  location: string,
  shownPath: string,
  options: { checkIntegrity?: boolean } = {},
): Database.Database {
  let database: Database.Database | undefined;
  try {
    const existed = location !== ':memory:' && existsSync(location);
    if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
    const opened = new Database(location);
    database = opened;
    opened.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Switching a new file to WAL needs an exclusive lock, and SQLite answers SQLITE_BUSY at once
    // (no busy handler, to avoid a deadlock) when another process holds the file's lock then.
    whileBusy(() => opened.pragma('journal_mode = WAL'));
    database.pragma('synchronous = NORMAL');
    database.pragma('foreign_keys = ON');
    // Checkpoint (and fsync) every ~40 MB of WAL rather than every 4 MB: commits stay cheap
    // during long runs; a crash still loses nothing committed.
    database.pragma('wal_autocheckpoint = 10000');
    whileBusy(() => migrate(opened));
    checkSchema(database, shownPath);
    if (existed && options.checkIntegrity && !checkedFiles.has(location)) {
      checkIntegrity(opened, shownPath);
      checkedFiles.add(location);
    }
    return database;
  } catch (error) {
    // Closed: a damaged store is left as it was, without a -wal or -shm file beside it.
    database?.close();
    const damage = asStoreDamage(shownPath, error);
    if (damage) throw damage;
    if (MedbenchError.is(error)) throw error;
    if (isFileSystemError(error)) throw fileError(error, { path: shownPath, action: 'write' });
    throw new MedbenchError({
      code: 'STORE_ERROR',
      message: `Cannot open the medbench store at ${shownPath}: ${(error as Error).message}`,
      hint: 'Check that the folder exists or can be created and is writable, or choose another with --home / MEDBENCH_HOME.',
      cause: error,
    });
  }
}

/**
 * Applies the missing migrations, each under SQLite's write lock (BEGIN IMMEDIATE) with the
 * version read again inside it: of several processes creating one store at once, one
 * migrates and the others find the work done.
 */
function migrate(database: Database.Database): void {
  for (;;) {
    const done = database
      .transaction(() => {
        const version = database.pragma('user_version', { simple: true }) as number;
        if (version > MIGRATIONS.length)
          throw new Error(
            `the store was written by a newer medbench (schema ${version} > ${MIGRATIONS.length})`,
          );
        if (version === MIGRATIONS.length) return true;
        database.exec(MIGRATIONS[version]!);
        database.pragma(`user_version = ${version + 1}`);
        return false;
      })
      .immediate();
    if (done) return;
  }
}

/**
 * Read-only access (report, view, export): no migrations, no writes. On a read-only file
 * system SQLite cannot open a WAL store that was closed cleanly (it needs its -shm file); the
 * store is then read into memory as it is on disk.
 */
export function openStoreReadonly(path: string): Database.Database {
  if (!existsSync(path)) {
    throw new MedbenchError({
      code: 'STORE_ERROR',
      message: `There is no medbench store at ${path}.`,
      hint: 'Run an evaluation first (e.g. `medbench demo`), or point --home / MEDBENCH_HOME at the folder holding medbench.sqlite.',
    });
  }
  let database: Database.Database;
  try {
    database = new Database(path, { readonly: true, fileMustExist: true });
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    database.pragma('user_version', { simple: true });
  } catch (error) {
    const damage = asStoreDamage(path, error);
    if (damage) throw damage;
    database = readIntoMemory(path, error);
  }
  const version = database.pragma('user_version', { simple: true }) as number;
  if (version !== MIGRATIONS.length) {
    database.close();
    throw new MedbenchError({
      code: 'STORE_ERROR',
      message: `The medbench store at ${path} has schema version ${version}; this medbench reads ${MIGRATIONS.length}.`,
      hint:
        version < MIGRATIONS.length
          ? 'Run any medbench command that writes (e.g. `medbench run` or `import`) on it once, to migrate it.'
          : 'It was written by a newer medbench: update medbench.',
    });
  }
  try {
    checkSchema(database, path);
  } catch (error) {
    database.close();
    throw asStoreDamage(path, error) ?? error;
  }
  return database;
}

function readIntoMemory(path: string, openError: unknown): Database.Database {
  const wal = `${path}-wal`;
  const cannotRead = (why: string) =>
    new MedbenchError({
      code: 'STORE_ERROR',
      message: `Cannot read the medbench store at ${path}: ${why}`,
      hint: 'Check that the file is readable; on a read-only file system, copy the store (with its -wal file) somewhere writable.',
      cause: openError,
    });
  if (existsSync(wal) && statSync(wal).size > 0)
    throw cannotRead(
      `${(openError as Error).message}, and its -wal file holds commits not yet in the main file`,
    );
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw cannotRead((error as Error).message);
  }
  // Bytes 18–19 of the header say "WAL"; an in-memory copy must say "rollback journal".
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  try {
    return new Database(bytes, { readonly: true });
  } catch (error) {
    throw cannotRead((error as Error).message);
  }
}
