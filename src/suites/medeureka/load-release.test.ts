import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMedEurekaRelease } from './load-release.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/medeureka');

const EXPECTED = [
  {
    key: 'Literature_en',
    queries: [
      {
        id: 'Literature_en-0',
        query: 'Which receptor does the virus bind?',
        targets: ['ACE2 is the entry receptor of SARS-CoV-2.'],
      },
      {
        id: 'Literature_en-1',
        query: 'How long is the incubation period?',
        targets: [
          'The median incubation period is about five days.',
          'Most cases show symptoms within 14 days.',
        ],
      },
    ],
    corpusSize: 4,
  },
  {
    key: 'Disease_dignosis_zh',
    queries: [{ id: 'Disease_dignosis_zh-0', query: '血糖高', targets: ['2型糖尿病'] }],
    corpusSize: 3,
  },
  {
    key: 'Disease_dignosis_cross',
    queries: [{ id: 'Disease_dignosis_cross-0', query: 'high blood pressure', targets: ['高血压'] }],
    corpusSize: 3,
  },
];

function summary(tasks: Awaited<ReturnType<typeof loadMedEurekaRelease>>) {
  return tasks.map((task) => ({ key: task.key, queries: task.queries, corpusSize: task.corpus.length }));
}

function plainFolder(queries: string, corpus: unknown): string {
  const folder = mkdtempSync(join(tmpdir(), 'medeureka-'));
  writeFileSync(join(folder, 'queries.jsonl'), queries);
  writeFileSync(join(folder, 'corpus.json'), JSON.stringify(corpus));
  return folder;
}

describe('loadMedEurekaRelease', () => {
  it('reads a save_to_disk folder written by Hugging Face datasets (Arrow)', async () => {
    expect(summary(await loadMedEurekaRelease(join(FIXTURES, 'save-to-disk')))).toEqual(EXPECTED);
  });

  it('reads the hub Parquet copy', async () => {
    expect(summary(await loadMedEurekaRelease(join(FIXTURES, 'parquet')))).toEqual(EXPECTED);
  });

  it('finds the release under a dataset/ folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'medeureka-root-'));
    mkdirSync(join(root, 'dataset'));
    writeFileSync(
      join(root, 'dataset', 'queries.jsonl'),
      '{"task":"Study_en","query":"q","targets":["a"]}\n',
    );
    writeFileSync(join(root, 'dataset', 'corpus.json'), JSON.stringify({ Study_en: ['a', 'b'] }));
    expect(summary(await loadMedEurekaRelease(root))[0]!.key).toBe('Literature_en');
  });

  it('rejects a task without a corpus, naming the line', async () => {
    const folder = plainFolder('{"task":"Table_en","query":"q","targets":["a"]}\n', { Study_en: ['a'] });
    await expect(loadMedEurekaRelease(folder)).rejects.toThrow(
      /queries\.jsonl:1: task Table_en has no corpus/,
    );
  });

  it('rejects a target missing from its corpus', async () => {
    const folder = plainFolder(
      '{"task":"Study_en","query":"q","targets":["a"]}\n{"task":"Study_en","query":"r","targets":["zzz"]}\n',
      { Study_en: ['a'] },
    );
    await expect(loadMedEurekaRelease(folder)).rejects.toThrow(
      /queries\.jsonl:2: the target "zzz" is not in the Literature_en corpus/,
    );
  });

  it('rejects a folder that is no release', async () => {
    await expect(loadMedEurekaRelease(mkdtempSync(join(tmpdir(), 'empty-')))).rejects.toThrow(
      /is not a MedEureka release/,
    );
  });
});
