import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleNiah, runCli, startCli, temporaryHome } from './cli.js';

/**
 * A damaged store, five ways, under report, view and run: one clear STORE_DAMAGED error (what is
 * wrong, where, how to fix it), a non-zero exit, and not one byte of the home's files changed.
 * view fails at start when the damage shows on opening (not a database, a table missing); a
 * damage it meets only when reading rows makes every API answer an HTTP 500 naming it instead.
 */

const scratch = temporaryHome();
const dataset = join(scratch, 'niah.jsonl');
const clean = join(scratch, 'clean');

/** Each damage, made to a copy of a demo store that was checkpointed into its one file. */
const DAMAGES: Record<string, { says: RegExp; make: (store: string) => void }> = {
  'not a database': {
    says: /not a medbench store: file is not a database/,
    make: (store) => writeFileSync(store, 'These are my notes, not a database.\n'.repeat(200)),
  },
  'malformed pages': {
    // SQLite's words when a read meets the damage; its quick check's before a write.
    says: /is damaged: (database disk image is malformed|\*\*\* in database main \*\*\*)/,
    make: (store) => {
      const bytes = readFileSync(store);
      const pageSize = bytes.readUInt16BE(16);
      // Every page but the first (the header and the schema): garbage.
      for (let offset = pageSize; offset < bytes.length; offset += 7) bytes[offset] = (offset * 31) & 0xff;
      writeFileSync(store, bytes);
    },
  },
  'a truncated file': {
    says: /is damaged: (database disk image is malformed|\*\*\* in database main \*\*\*)/,
    make: (store) => truncateSync(store, Math.floor(readFileSync(store).length / 3)),
  },
  'a dropped table': {
    says: /is damaged: its table "results" is missing/,
    make: (store) => {
      const database = new Database(store);
      database.exec('DROP TABLE results');
      database.close();
    },
  },
  'a garbage JSON column': {
    says: /is damaged: runs\.model_json of run \w+ is not JSON/,
    make: (store) => {
      const database = new Database(store);
      database.exec(
        "UPDATE runs SET model_json = '{oops' WHERE id = (SELECT MIN(id) FROM runs WHERE suite = 'medodyssey')",
      );
      database.close();
    },
  },
};

/**
 * The store file hashed, and the bytes of its -wal file: equal states mean not one byte of the
 * store changed and no commit waits beside it. (A read-only connection to a WAL store leaves an
 * empty -wal and an -shm index file behind, as every report does.)
 */
function storeState(home: string): { store: string; walBytes: number; files: string[] } {
  const path = join(home, 'medbench.sqlite');
  return {
    store: createHash('sha256').update(readFileSync(path)).digest('hex'),
    walBytes: existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0,
    files: readdirSync(home).filter((name) => !/^medbench\.sqlite-(wal|shm)$/.test(name)),
  };
}

beforeAll(async () => {
  await buildSampleNiah(dataset);
  expect((await runCli(['--home', clean, 'demo'])).code).toBe(0);
  // Every commit in the main file (still a WAL store, as every store is): each damage is made
  // to the whole store, and closing the last connection removes the empty -wal file.
  const database = new Database(join(clean, 'medbench.sqlite'));
  database.pragma('wal_checkpoint(TRUNCATE)');
  database.close();
  rmSync(join(clean, 'claims.sqlite'), { force: true });
  rmSync(join(clean, 'site'), { recursive: true, force: true });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function damagedHome(damage: string, command: string): string {
  const home = join(scratch, `${damage.replaceAll(' ', '-')}-${command}`);
  mkdirSync(home);
  cpSync(join(clean, 'medbench.sqlite'), join(home, 'medbench.sqlite'));
  DAMAGES[damage]!.make(join(home, 'medbench.sqlite'));
  return home;
}

/** `view` on `home`: how it ended if it did at start, else what its overview answered. */
async function view(home: string): Promise<{ code: number | null; text: string; status?: number }> {
  const viewer = startCli(['--home', home, 'view']);
  const url = await new Promise<string | undefined>((resolve) => {
    let seen = '';
    viewer.child.stdout!.on('data', (chunk) => {
      seen += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
      if (match) resolve(match[1]);
    });
    viewer.child.on('close', () => resolve(undefined));
  });
  if (!url) {
    const ended = await viewer.done;
    return { code: ended.code, text: ended.stderr };
  }
  try {
    const answers = await Promise.all(
      ['api/overview', 'api/leaderboard?suite=medodyssey'].map((path) => fetch(`${url}${path}`)),
    );
    const failed = answers.find((answer) => answer.status !== 200) ?? answers[0]!;
    return { code: failed.status === 200 ? 0 : 1, status: failed.status, text: await failed.text() };
  } finally {
    viewer.child.kill('SIGTERM');
    await viewer.done;
  }
}

const COMMANDS = ['report', 'view', 'run'] as const;
const CASES = Object.keys(DAMAGES).flatMap((damage) => COMMANDS.map((command) => ({ damage, command })));

describe('a damaged store: a clear error, a non-zero exit, the files as they were', () => {
  it.concurrent.each(CASES)('$damage, $command', async ({ damage, command }) => {
    const home = damagedHome(damage, command);
    const before = storeState(home);
    const store = join(home, 'medbench.sqlite');
    const result =
      command === 'view'
        ? await view(home)
        : await runCli(
            command === 'report'
              ? ['--home', home, 'report']
              : ['--home', home, 'run', '--dataset', dataset, '--model', 'baseline'],
          ).then((ended) => ({ code: ended.code, text: ended.stderr }));
    expect(result.code, result.text).not.toBe(0);
    expect(result.text).toContain('[STORE_DAMAGED]');
    expect(result.text).toContain(store);
    expect(result.text).toMatch(DAMAGES[damage]!.says);
    expect(result.text).toMatch(/from a backup, or move it .*away and re-run/);
    expect(result.text).not.toMatch(/unexpected error|SqliteError|SyntaxError|\n\s+at [\w.<>]+ \(/);
    expect(storeState(home)).toEqual(before);
  });
});
