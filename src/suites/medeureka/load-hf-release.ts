import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, relative } from 'node:path';
import { z } from 'zod';
import { fileError, MedbenchError } from '../../core/errors.js';
import { BoundedWorker } from '../../io/bounded-worker.js';
import { parseJsonText, readTextFile } from '../../io/text-file.js';
import { assembleTasks, type ReleaseRow, type RetrievalTask } from './assemble-tasks.js';

type Row = Record<string, unknown>;

const TARGET_SEPARATOR = '<#SEP#>';

const stateSchema = z.object({ _data_files: z.array(z.object({ filename: z.string() })).min(1) });

function invalid(message: string, hint?: string): MedbenchError {
  return new MedbenchError({ code: 'DATA_INVALID', message, ...(hint ? { hint } : {}) });
}

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw fileError(error, { path: file, action: 'read' });
  }
}

/** A file that does not decode: truncated, empty, or another format under the name. */
function unreadable(file: string, format: 'Arrow' | 'Parquet', error: unknown): MedbenchError {
  if (MedbenchError.is(error)) return error;
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `${file}: not a readable ${format} file (${(error as Error)?.message ?? String(error)}).`,
    hint: `The file may be truncated or not ${format} at all: download it again from the official release.`,
    cause: error,
  });
}

/** The Arrow files of one `save_to_disk` split, in `state.json` order. */
function arrowFilesOf(splitFolder: string): string[] {
  const statePath = join(splitFolder, 'state.json');
  if (existsSync(statePath)) {
    const state = stateSchema.safeParse(parseJsonText(readTextFile(statePath), statePath));
    if (!state.success) throw invalid(`${statePath}: no _data_files list.`);
    return state.data._data_files.map((file) => join(splitFolder, file.filename));
  }
  return readdirSync(splitFolder)
    .filter((name) => name.endsWith('.arrow'))
    .sort()
    .map((name) => join(splitFolder, name));
}

/**
 * Decodes one Arrow IPC file into plain rows (lists as arrays), in a worker. A row count larger
 * than the file's bytes is a damaged length field: decoding would loop for hours.
 */
const ARROW_DECODER = `
let tableFromIPC;
function decode({ arrow, bytes: buffer }) {
  tableFromIPC ??= require(arrow).tableFromIPC;
  const bytes = new Uint8Array(buffer);
  const table = tableFromIPC(bytes);
  if (table.numRows > bytes.length) throw new Error('it claims ' + table.numRows + ' rows in ' + bytes.length + ' bytes');
  const plain = (value) =>
    value && typeof value === 'object' && typeof value.toArray === 'function'
      ? Array.from(value.toArray(), plain)
      : value;
  const rows = [];
  for (const row of table) {
    const json = row.toJSON();
    for (const key of Object.keys(json)) json[key] = plain(json[key]);
    rows.push(json);
  }
  return rows;
}
`;

/** One decoder per memory ceiling (powers of two from 256 MB: 32 MB per MB of file, and then some). */
const arrowDecoders = new Map<number, BoundedWorker>();

function arrowDecoder(megabytes: number): BoundedWorker {
  const memoryMb = 2 ** Math.ceil(Math.log2(256 + 32 * megabytes));
  let decoder = arrowDecoders.get(memoryMb);
  if (!decoder) {
    decoder = new BoundedWorker({ code: ARROW_DECODER, memoryMb });
    arrowDecoders.set(memoryMb, decoder);
  }
  return decoder;
}

async function readArrowRows(files: readonly string[]): Promise<Row[]> {
  const arrow = createRequire(import.meta.url).resolve('apache-arrow');
  const rows: Row[] = [];
  for (const file of files) {
    if (!existsSync(file)) throw invalid(`Arrow file not found: ${file}`);
    const bytes = readBytes(file);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const megabytes = bytes.byteLength / 2 ** 20;
    try {
      rows.push(
        ...(await arrowDecoder(megabytes).run<Row[]>(
          { arrow, bytes: buffer },
          { transferList: [buffer], timeoutMs: Math.ceil(60_000 + 2_000 * megabytes) },
        )),
      );
    } catch (error) {
      throw unreadable(file, 'Arrow', error);
    }
  }
  return rows;
}

async function readParquetRows(files: readonly string[]): Promise<Row[]> {
  const { parquetReadObjects } = await import('hyparquet');
  const rows: Row[] = [];
  for (const file of files) {
    const bytes = readBytes(file);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    try {
      rows.push(...((await parquetReadObjects({ file: buffer })) as Row[]));
    } catch (error) {
      throw unreadable(file, 'Parquet', error);
    }
  }
  return rows;
}

/** Files with `extension` at most three folders below `folder` (the hub layout is data/*.parquet). */
function filesUnder(folder: string, extension: string, depth = 3): string[] {
  const found: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return found; // an unreadable subfolder holds no release
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isFile() && entry.name.endsWith(extension)) found.push(path);
    else if (entry.isDirectory() && depth > 0 && !entry.name.startsWith('.') && entry.name !== 'node_modules')
      found.push(...filesUnder(path, extension, depth - 1));
  }
  return found.sort();
}

/** Which split a Parquet file holds: a `test`/`corpus` folder or file-name prefix. */
function parquetSplitOf(root: string, file: string, querySplit: string): string | undefined {
  const parts = relative(root, file).split(/[\\/]/);
  const name = basename(file);
  for (const split of [querySplit, 'corpus']) {
    if (parts.slice(0, -1).includes(split) || name.startsWith(`${split}-`) || name.startsWith(`${split}.`))
      return split;
  }
  return undefined;
}

/** A list value (Arrow lists arrive as arrays from the decoder, Parquet lists as arrays). */
function asStrings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? (value as string[]) : undefined;
}

function releaseRowsOf(rows: readonly Row[], source: string): ReleaseRow[] {
  return rows.map((row, index) => {
    const where = `${source} row ${index + 1}`;
    const item = asStrings(row.item);
    if (
      typeof row.task_type !== 'string' ||
      !item ||
      item.length !== 2 ||
      item.some((part) => typeof part !== 'string')
    )
      throw invalid(
        `${where}: expected task_type (string) and item ([query, targets]).`,
        'See docs/formats.md, MedEureka.',
      );
    return { task: row.task_type, query: item[0]!, targets: item[1]!.split(TARGET_SEPARATOR), where };
  });
}

function corporaOf(rows: readonly Row[], source: string): Record<string, string[]> {
  const value = rows[0]?.task2corpus;
  if (rows.length !== 1 || typeof value !== 'string')
    throw invalid(`${source}: expected one row with a task2corpus JSON string.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw invalid(`${source}: task2corpus is not valid JSON: ${(error as Error).message}`);
  }
  const corpora = z.record(z.string(), z.array(z.string())).safeParse(parsed);
  if (!corpora.success) throw invalid(`${source}: task2corpus must map task keys to arrays of texts.`);
  return corpora.data;
}

/** True when `folder` looks like a `save_to_disk` dataset dictionary. */
export function isSaveToDiskFolder(folder: string): boolean {
  return (
    existsSync(join(folder, 'dataset_dict.json')) ||
    (existsSync(join(folder, 'test', 'state.json')) && existsSync(join(folder, 'corpus')))
  );
}

/**
 * The error for a query split the release lacks: a usage error naming the splits it has when
 * `--split` chose it, else (the default `test` missing) a release that is not whole.
 */
function missingSplit(
  folder: string,
  split: string,
  chosen: boolean,
  present: Iterable<string>,
): MedbenchError {
  const has = [...new Set(present)].sort().join(', ') || 'none';
  return chosen
    ? new MedbenchError({
        code: 'USAGE',
        message: `--split ${split}: ${folder} has no "${split}" split (its splits: ${has}).`,
        hint: 'Give a split the release has: test to evaluate, train to mine training triples.',
      })
    : new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `${folder} has no "${split}" split (its splits: ${has}).`,
        hint: 'The MedEureka release has test and corpus splits (and train); pass the whole release folder.',
      });
}

/** A `save_to_disk` dataset dictionary with `test` and `corpus` splits (Arrow files); `split` from --split. */
export async function loadSaveToDiskRelease(folder: string, split?: string): Promise<RetrievalTask[]> {
  const querySplit = split ?? 'test';
  if (!existsSync(join(folder, querySplit)))
    throw missingSplit(
      folder,
      querySplit,
      split !== undefined,
      readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    );
  for (const split of [querySplit, 'corpus']) {
    if (!existsSync(join(folder, split)))
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `${folder} has no "${split}" split folder.`,
        hint: 'The MedEureka release is a dataset dictionary with test and corpus splits.',
      });
  }
  const testFiles = arrowFilesOf(join(folder, querySplit));
  const corpusFiles = arrowFilesOf(join(folder, 'corpus'));
  return assembleTasks({
    rows: releaseRowsOf(await readArrowRows(testFiles), join(folder, querySplit)),
    corpora: corporaOf(await readArrowRows(corpusFiles), join(folder, 'corpus')),
    corpusSource: join(folder, 'corpus'),
  });
}

/** The hub's Parquet copy: `test` and `corpus` Parquet files anywhere under `folder`; `split` from --split. */
export async function loadParquetRelease(
  folder: string,
  split?: string,
): Promise<RetrievalTask[] | undefined> {
  const querySplit = split ?? 'test';
  const files = filesUnder(folder, '.parquet');
  if (files.length === 0) return undefined;
  const testFiles = files.filter((file) => parquetSplitOf(folder, file, querySplit) === querySplit);
  const corpusFiles = files.filter((file) => parquetSplitOf(folder, file, querySplit) === 'corpus');
  if (testFiles.length === 0 && corpusFiles.length > 0)
    throw missingSplit(
      folder,
      querySplit,
      split !== undefined,
      // The hub names each file <split>-NNNNN-of-NNNNN.parquet.
      files.map((file) => basename(file).replace(/(-\d+-of-\d+)?\.parquet$/, '')),
    );
  if (testFiles.length === 0 || corpusFiles.length === 0)
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `${folder} holds Parquet files but not both a ${querySplit} and a corpus split.`,
      hint: 'Expected files such as data/test-00000-of-00001.parquet and data/corpus-00000-of-00001.parquet.',
    });
  return assembleTasks({
    rows: releaseRowsOf(await readParquetRows(testFiles), relative(folder, testFiles[0]!)),
    corpora: corporaOf(await readParquetRows(corpusFiles), corpusFiles[0]!),
    corpusSource: corpusFiles[0]!,
  });
}
