import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_TASK_RESULT } from '../../../test/support/mteb-fixtures.js';
import { MEDEUREKA_DATASETS } from './datasets.js';
import {
  datasetOfMtebTask,
  fromMtebScores,
  MTEB_SCORE_KEYS,
  mtebTaskName,
  mtebTaskResult,
  mtebTaskResultSchema,
} from './mteb-task-result.js';

describe("MTEB's TaskResult (pinned)", () => {
  const published = JSON.parse(readFileSync(PUBLISHED_TASK_RESULT, 'utf8'));

  it('reads the published file, and its scores under medbench keys', () => {
    const parsed = mtebTaskResultSchema.parse(published);
    expect(parsed.task_name).toBe('MedicalRetrieval');
    const entry = parsed.scores.dev![0]!;
    expect(entry.main_score).toBe(0.44839);
    const scores = fromMtebScores(entry);
    expect([scores['ndcg@10'], scores['map@10'], scores['recall@100'], scores['mrr@10']]).toEqual([
      published.scores.dev[0].ndcg_at_10,
      0.42442,
      0.652,
      0.42508373015873,
    ]);
    // nauc_* and other values that are no score family are left out
    expect(Object.keys(scores).every((key) => /^(ndcg|map|recall|mrr|precision)@\d+$/.test(key))).toBe(true);
  });

  it("refuses what is not a TaskResult: a missing required field, a subset's scores without main_score", () => {
    const { evaluation_time: _, ...noTime } = published;
    expect(mtebTaskResultSchema.safeParse(noTime).success).toBe(false);
    const entry = { ...published.scores.dev[0] };
    delete entry.main_score;
    expect(mtebTaskResultSchema.safeParse({ ...published, scores: { dev: [entry] } }).success).toBe(false);
    // pre-1.11 files keyed scores by subset, not as a list
    expect(mtebTaskResultSchema.safeParse({ ...published, scores: { dev: { default: {} } } }).success).toBe(
      false,
    );
  });

  it("writes a MedEureka dataset in the published file's shape: its fields, its score keys", () => {
    const scores = Object.fromEntries(MTEB_SCORE_KEYS.map((key, index) => [key, index / 100]));
    const written = mtebTaskResult({
      dataset: MEDEUREKA_DATASETS[7]!,
      datasetRevision: 'abc',
      scores,
      createdAt: '2026-11-27T10:00:00.000Z',
    });
    expect(mtebTaskResultSchema.parse(JSON.parse(JSON.stringify(written)))).toEqual(written);
    expect(Object.keys(published).every((key) => key in written)).toBe(true);
    expect(written.task_name).toBe('MedEurekaTermII');
    expect(datasetOfMtebTask('MedEurekaTermII')?.name).toBe('Term II');
    expect(mtebTaskName('Dialogue III')).toBe('MedEurekaDialogueIII');
    const entry = written.scores.test![0]!;
    expect(entry.languages).toEqual(['eng-Latn', 'cmn-Hans']);
    expect(entry.main_score).toBe(scores['ndcg@10']);
    // every key the published file has at k = 1, 5, 10, 20, 100 is written under the same name
    for (const family of ['ndcg', 'map', 'recall', 'mrr'])
      for (const k of [1, 5, 10, 20, 100]) {
        expect(published.scores.dev[0]).toHaveProperty(`${family}_at_${k}`);
        expect(entry).toHaveProperty(`${family}_at_${k}`);
      }
    expect(written.date).toBe(Date.parse('2026-11-27T10:00:00Z') / 1000);
    expect(fromMtebScores(entry)).toEqual(scores);
  });
});
