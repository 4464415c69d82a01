import Database from 'better-sqlite3';
import { MedbenchError } from '../core/errors.js';
import { MIGRATIONS } from './migrations.js';

const HINT =
  'Restore medbench.sqlite from a backup, or move it (with its -wal and -shm files) away and re-run to start a new store (`medbench merge` copies the runs of an intact store into it).';

/** The store at `path` cannot be trusted: what is wrong, and how to get a working one back. */
export function storeDamaged(path: string, what: string, cause?: unknown): MedbenchError {
  return new MedbenchError({
    code: 'STORE_DAMAGED',
    message: `The medbench store at ${path} is damaged: ${what}.`,
    hint: HINT,
    cause,
  });
}

/** A text column that does not hold the JSON it should; turned into `storeDamaged` by the store. */
export class ColumnNotJson extends Error {
  constructor(readonly where: string) {
    super(`${where} is not JSON`);
    this.name = 'ColumnNotJson';
  }
}

/** `text` parsed as JSON, or a `ColumnNotJson` naming `where` (table.column and row). */
export function parseColumn<T = unknown>(text: string, where: () => string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ColumnNotJson(where());
  }
}

/**
 * `error` as the damage of the store at `path` it reveals: a file that is not a database, pages
 * SQLite finds malformed, a table or column of the schema missing, a JSON column that is not
 * JSON. Undefined for any other error.
 */
export function asStoreDamage(path: string, error: unknown): MedbenchError | undefined {
  if (error instanceof ColumnNotJson) return storeDamaged(path, error.message, error);
  if (!(error instanceof Database.SqliteError)) return undefined;
  if (error.code === 'SQLITE_NOTADB')
    return new MedbenchError({
      code: 'STORE_DAMAGED',
      message: `The file at ${path} is not a medbench store: ${error.message}.`,
      hint: HINT,
      cause: error,
    });
  if (error.code.startsWith('SQLITE_CORRUPT')) return storeDamaged(path, error.message, error);
  const missing = /^no such (table|column): (?:\w+\.)?(\w+)$/.exec(error.message);
  if (missing) return storeDamaged(path, `its ${missing[1]} "${missing[2]}" is missing`, error);
  return undefined;
}

let schema: ReadonlyMap<string, readonly string[]> | undefined;

/** Each table of a medbench store with its columns, as the migrations make them. */
function expectedSchema(): ReadonlyMap<string, readonly string[]> {
  if (schema) return schema;
  const database = new Database(':memory:');
  for (const migration of MIGRATIONS) database.exec(migration);
  schema = tableColumns(database);
  database.close();
  return schema;
}

function tableColumns(database: Database.Database): Map<string, string[]> {
  const tables = database
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .pluck()
    .all() as string[];
  return new Map(
    tables.map((table) => [
      table,
      (database.pragma(`table_info(${JSON.stringify(table)})`) as Array<{ name: string }>).map(
        (column) => column.name,
      ),
    ]),
  );
}

/** Every table and column the migrations make is there (read from the schema: cheap). */
export function checkSchema(database: Database.Database, path: string): void {
  const present = tableColumns(database);
  for (const [table, columns] of expectedSchema()) {
    const have = present.get(table);
    if (!have) throw storeDamaged(path, `its table "${table}" is missing`);
    const gone = columns.find((column) => !have.includes(column));
    if (gone) throw storeDamaged(path, `its column "${table}.${gone}" is missing`);
  }
}

/** The JSON columns of each table, and how a row is named in a message. */
const JSON_COLUMNS: ReadonlyArray<{ table: string; columns: readonly string[]; row: string }> = [
  { table: 'runs', columns: ['model_json', 'parameters_json'], row: "'run ' || id" },
  {
    table: 'results',
    columns: ['params_json', 'gold_json', 'parsed_json', 'scores_json', 'redaction_json'],
    row: "'run ' || run_id || ', sample ' || sample_id",
  },
  { table: 'leaderboards', columns: ['board_json'], row: "'suite ' || suite" },
];

/**
 * Before a command writes to an existing store: SQLite's quick check of every page, then every
 * JSON column parsed. Both read the whole file once; a damaged store is found before anything is
 * written to it (a write would change the file, and a later step fail on the damage anyway).
 */
export function checkIntegrity(database: Database.Database, path: string): void {
  const problems = database.pragma('quick_check(1)', { simple: true }) as string;
  if (problems !== 'ok') throw storeDamaged(path, problems);
  for (const { table, columns, row } of JSON_COLUMNS) {
    for (const column of columns) {
      const bad = database
        .prepare(
          `SELECT ${row} FROM ${table} WHERE ${column} IS NOT NULL AND NOT json_valid(${column}) LIMIT 1`,
        )
        .pluck()
        .get() as string | undefined;
      if (bad !== undefined) throw storeDamaged(path, `${table}.${column} of ${bad} is not JSON`);
    }
  }
}

/**
 * Every method of `prototype` turned so that an error revealing damage (`asStoreDamage`) leaves
 * it as a STORE_DAMAGED error naming the store: the report, the viewer and a run say what is
 * wrong instead of an SQLite or JSON error.
 */
export function reportDamage<Instance extends object>(
  prototype: Instance,
  pathOf: (instance: Instance) => string,
): void {
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    if (name === 'constructor' || typeof descriptor?.value !== 'function') continue;
    const method = descriptor.value as (...args: unknown[]) => unknown;
    Object.defineProperty(prototype, name, {
      ...descriptor,
      value(this: Instance, ...args: unknown[]) {
        try {
          return method.apply(this, args);
        } catch (error) {
          throw asStoreDamage(pathOf(this), error) ?? error;
        }
      },
    });
  }
}
