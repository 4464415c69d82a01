import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import type { Sample } from '../core/sample.js';
import { readDataset, writeDataset } from './dataset-file.js';

const folder = () => temporaryFolder('medbench-dataset-');

const sample: Sample = {
  id: 'niah-zh-4k-d0-n1',
  suite: 'medodyssey',
  task: 'niah',
  params: { language: 'zh', level: 4000, depth: 0 },
  prompt: '内容：\n针\n问题：？',
  promptChars: 10,
  promptTokens: { o200k_base: 9 },
  gold: { answers: ['针'] },
};
const header = {
  suite: 'medodyssey',
  createdAt: 'now',
  generator: 'test',
  build: {},
  tokenizers: ['o200k_base'],
};

describe('dataset files', () => {
  it('round-trips samples and derives a content id', async () => {
    const path = join(folder(), 'd.jsonl');
    const written = await writeDataset({ path, header, samples: [sample, { ...sample, id: 'b' }] });
    const dataset = await readDataset(path);
    expect(dataset.samples).toEqual([sample, { ...sample, id: 'b' }]);
    expect(dataset.id).toBe(written.id);
    // A rebuild with another header (time, paths) but the same samples keeps the id.
    const again = await writeDataset({
      path,
      header: { ...header, createdAt: 'later' },
      samples: [sample, { ...sample, id: 'b' }],
    });
    expect(again.id).toBe(written.id);
  });

  it('leaves no file when the build fails midway', async () => {
    const directory = folder();
    function* failing(): Generator<Sample> {
      yield sample;
      throw new Error('boom');
    }
    await expect(
      writeDataset({ path: join(directory, 'd.jsonl'), header, samples: failing() }),
    ).rejects.toThrow('boom');
    expect(readdirSync(directory)).toEqual([]);
  });

  it('names the file and line of a bad sample', async () => {
    const path = join(folder(), 'bad.jsonl');
    writeFileSync(
      path,
      `${JSON.stringify({ medbenchDataset: 1, ...header })}\n${JSON.stringify({ ...sample, promptChars: -1 })}\n`,
    );
    await expect(readDataset(path)).rejects.toMatchObject({
      code: 'DATA_INVALID',
      message: expect.stringContaining('bad.jsonl:2: sample field promptChars'),
    });
  });

  it('rejects files that are not datasets, and missing files', async () => {
    const path = join(folder(), 'other.jsonl');
    writeFileSync(path, '{"hello": 1}\n');
    await expect(readDataset(path)).rejects.toMatchObject({ code: 'DATA_INVALID' });
    await expect(readDataset(join(folder(), 'none.jsonl'))).rejects.toMatchObject({ code: 'DATA_NOT_FOUND' });
  });
});
