import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { streamCsv } from './csv-stream.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-csv-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The reference: Python's csv.reader over the file opened in text mode, as the CLUE script reads it. */
function pythonRows(path: string): string[][] {
  const python = spawnSync(
    'python3',
    ['-c', 'import csv, json, sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1])))))', path],
    { encoding: 'utf8' },
  );
  if (python.status !== 0) throw new Error(python.stderr);
  return JSON.parse(python.stdout) as string[][];
}

async function ourRows(path: string, chunkBytes?: number): Promise<string[][]> {
  const rows: string[][] = [];
  await streamCsv(path, { onRow: (fields) => rows.push(fields), ...(chunkBytes ? { chunkBytes } : {}) });
  return rows;
}

const tricky = [
  'note_id,hadm_id,text\r\n',
  '1,"100","line one\r\nline two\rline three\nline four"\r\n',
  '2,200,"she said ""stop"" twice"\n',
  '\n',
  '3,300,"closed" and more,tail\r',
  '4,,"émigré — naïve 日本 ✓","a, b"\n',
  '5,500,x"y"z,""\n',
  '6,600,"unterminated at the end\nof the file',
].join('');

describe('streamCsv reads a file as Python’s csv.reader does', () => {
  it('agrees with Python on quotes, newlines of every kind, blank lines and an open quote at the end', async () => {
    const path = join(folder, 'tricky.csv');
    writeFileSync(path, tricky);
    const expected = pythonRows(path);
    expect(expected.length).toBe(8);
    expect(await ourRows(path)).toEqual(expected);
    // Chunks of 1 to 7 bytes split CRLF pairs and multi-byte characters at every place.
    for (const size of [1, 2, 3, 5, 7])
      expect(await ourRows(path, size), `chunks of ${size}`).toEqual(expected);
  });

  it('reads a gzip file through gunzip', async () => {
    const path = join(folder, 'tricky.csv.gz');
    writeFileSync(path, gzipSync(tricky));
    writeFileSync(join(folder, 'plain.csv'), tricky);
    expect(await ourRows(path)).toEqual(pythonRows(join(folder, 'plain.csv')));
  });

  it("stops at a field longer than the limit, as Python's csv module does, naming the record", async () => {
    const path = join(folder, 'long.csv');
    writeFileSync(path, `a,b\n1,"${'x'.repeat(50)}"\n`);
    await expect(streamCsv(path, { onRow: () => {}, fieldLimit: 40 })).rejects.toThrow(
      /field in record 1 \(line 2\) is longer than 40 characters/,
    );
  });

  it('hands unwanted fields over as empty strings, still holding them to the limit', async () => {
    const path = join(folder, 'keep.csv');
    writeFileSync(path, 'id,text\n1,"long\ntext"\n2,"kept"\n');
    const rows: string[][] = [];
    await streamCsv(path, {
      onRow: (fields) => rows.push(fields),
      keep: (row, column) => column === 0 || row === 2,
    });
    expect(rows).toEqual([
      ['id', ''],
      ['1', ''],
      ['2', 'kept'],
    ]);
    await expect(
      streamCsv(path, { onRow: () => {}, keep: (_, column) => column === 0, fieldLimit: 8 }),
    ).rejects.toThrow(/field in record 1 \(line 2\) is longer than 8 characters/);
  });

  it('refuses bytes that are not UTF-8, naming the line', async () => {
    const path = join(folder, 'latin1.csv');
    writeFileSync(
      path,
      Buffer.concat([Buffer.from('a,b\n1,2\n3,caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    await expect(streamCsv(path, { onRow: () => {} })).rejects.toThrow(/not UTF-8 near line 3/);
  });
});
