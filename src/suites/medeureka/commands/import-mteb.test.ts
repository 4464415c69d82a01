import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PUBLISHED_MTEB_FOLDER, PUBLISHED_TASK_RESULT } from '../../../../test/support/mteb-fixtures.js';
import { storedRuns } from '../../../compose/stored-report.js';
import { Store } from '../../../store/store.js';
import { suiteLeaderboard } from '../../../store/suite-leaderboard.js';
import { medeurekaTables } from '../medeureka-report.js';
import { medeurekaSuite } from '../suite.js';
import { importMtebResults } from './import-mteb.js';

const scratch = mkdtempSync(join(tmpdir(), 'medbench-mteb-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const silent = { stdout: () => {}, stderr: () => {} };
const told: string[] = [];
const listening = { stdout: (text: string) => told.push(text), stderr: () => {} };

function reportOf(home: string) {
  const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return medeurekaSuite.report(storedRuns(store, medeurekaSuite), {});
  } finally {
    store.close();
  }
}

describe('medbench import mteb', () => {
  it("stores a published model's results as an imported run the MedEureka report shows beside medbench's", () => {
    const home = join(scratch, 'published');
    importMtebResults({ files: [PUBLISHED_TASK_RESULT], home }, listening);
    expect(told.join('')).toMatch(/^intfloat\/multilingual-e5-small \(e4ce9877.*\): 1 task results imported/);
    const report = reportOf(home);
    expect(report.runs).toEqual([]);
    expect(medeurekaSuite.runCount(report)).toBe(1);
    expect(report.mteb).toEqual([
      expect.objectContaining({
        label: 'intfloat/multilingual-e5-small',
        source: 'imported',
        task: 'MedicalRetrieval',
        dataset: null,
        split: 'dev',
        subset: 'default',
        languages: ['cmn-Hans'],
      }),
    ]);
    // the file's fractions as percent: ndcg_at_10 0.44839, map_at_10 0.42442, recall_at_100 0.652
    expect(report.mteb![0]!.scores['ndcg@10']).toBeCloseTo(44.839, 10);
    expect(report.mteb![0]!.scores['recall@100']).toBeCloseTo(65.2, 10);
    const table = medeurekaTables(report).find((candidate) => candidate.name === 'mteb')!;
    expect(table.rows).toEqual([
      [
        'intfloat/multilingual-e5-small',
        'imported (MTEB file)',
        'MedicalRetrieval',
        'dev',
        '44.84',
        '42.44',
        '37.50',
        '48.40',
        '52.40',
        '55.50',
        '65.20',
        '42.51',
      ],
    ]);
    // the viewer's leaderboard (as the viewer reads it, from the light rows): a row of its own, marked imported
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const board = suiteLeaderboard(store, medeurekaSuite);
      expect(board.rows).toEqual([expect.objectContaining({ imported: true, samples: 0 })]);
      expect(board.rows[0]!.values['ndcg@10']).toEqual({ MedicalRetrieval: 44.839 });
      expect(board.rows[0]!.values['mrr@10']).toEqual({ 'Avg.': null });
    } finally {
      store.close();
    }
    // importing the same file again changes nothing
    importMtebResults({ files: [PUBLISHED_TASK_RESULT], home }, silent);
    expect(reportOf(home).mteb).toHaveLength(1);
  });

  it('refuses bad files with the file and the field named, and leaves the store as it was', () => {
    const home = join(scratch, 'refused');
    const lone = join(scratch, 'lone');
    mkdirSync(lone);
    const noMeta = join(lone, 'MedicalRetrieval.json');
    copyFileSync(PUBLISHED_TASK_RESULT, noMeta);
    expect(() => importMtebResults({ files: [noMeta], home }, silent)).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('no model_meta.json') }),
    );
    const historic = join(scratch, 'historic.json');
    writeFileSync(historic, JSON.stringify({ mteb_version: '1.1.0', test: { ndcg_at_10: 0.5 } }));
    expect(() => importMtebResults({ files: [PUBLISHED_TASK_RESULT, historic], home }, silent)).toThrow(
      expect.objectContaining({
        code: 'DATA_INVALID',
        message: expect.stringMatching(/historic\.json: not an MTEB TaskResult: field "dataset_revision"/),
        hint: expect.stringContaining('before mteb 1.11'),
      }),
    );
    expect(() =>
      importMtebResults({ files: [PUBLISHED_TASK_RESULT, noMeta], home, model: 'e5' }, silent),
    ).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('twice') }));
    expect(existsSync(join(home, 'medbench.sqlite'))).toBe(false);
    // --model names the model when no model_meta.json is beside the file
    importMtebResults({ files: [noMeta], home, model: 'e5-small' }, silent);
    expect(reportOf(home).mteb!.map((row) => row.label)).toEqual(['e5-small']);
    expect(existsSync(join(PUBLISHED_MTEB_FOLDER, 'model_meta.json'))).toBe(true);
  });
});
