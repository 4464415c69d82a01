import { describe, expect, it } from 'vitest';
import type { RunRecord, StoredResult } from '../../store/store.js';
import { buildMedEurekaReport, renderMedEurekaHtml } from './medeureka-report.js';

const run: RunRecord = {
  id: 'r1',
  suite: 'medeureka',
  label: 'model <b>',
  datasetId: 'd',
  datasetPath: null,
  model: { kind: 'dense', modelId: 'm', instructionTemplate: 'e5' },
  parameters: {},
  source: 'medbench',
  scoringMode: 'standard',
  createdAt: '2026-11-22T00:00:00Z',
};

function result(
  key: string,
  dataset: string,
  language: string,
  granularity: string,
  hit10: number,
  rr10: number,
) {
  return {
    params: { key, dataset, language, granularity },
    scores: { 'hr@10': hit10, 'mrr@10': rr10 },
  } as unknown as StoredResult;
}

describe('buildMedEurekaReport', () => {
  it('merges Term I sub-corpora by summing counts, and averages datasets plainly', () => {
    const results = [
      // Term I: 3 queries in one sub-corpus (2 hits) and 1 in another (1 hit) → 3/4, not the mean of 2/3 and 1/1.
      result('Disease_dignosis_zh', 'Term I', 'zh', 'phrase → phrase', 1, 1),
      result('Disease_dignosis_zh', 'Term I', 'zh', 'phrase → phrase', 1, 0.5),
      result('Disease_dignosis_zh', 'Term I', 'zh', 'phrase → phrase', 0, 0),
      result('Symptom_sign_zh', 'Term I', 'zh', 'phrase → phrase', 1, 0.25),
      result('Table_en', 'Table II', 'en', 'sentence → document', 0, 0.1),
      result('Table_en', 'Table II', 'en', 'sentence → document', 1, 1),
    ];
    const [report] = buildMedEurekaReport([{ run, results }]).runs;
    expect(report!.datasets['Term I']!['hr@10']).toBeCloseTo(75, 10);
    expect(report!.datasets['Term I']!['mrr@10']).toBeCloseTo(43.75, 10);
    expect(report!.datasets['Table II']!['mrr@10']).toBeCloseTo(55, 10);
    expect(report!.average['hr@10']).toBeCloseTo((75 + 50) / 2, 10);
    expect(report!.byDataType.Term!['mrr@10']).toBeCloseTo(43.75, 10);
    expect(report!.byLanguage.en!['hr@10']).toBeCloseTo(50, 10);
    expect(Object.keys(report!.byGranularity).sort()).toEqual(['phrase → phrase', 'sentence → document']);
  });

  it('escapes labels in the HTML report', () => {
    const html = renderMedEurekaHtml(
      buildMedEurekaReport([{ run, results: [result('Table_en', 'Table II', 'en', 'x', 1, 1)] }]),
    );
    expect(html).toContain('model &lt;b&gt;');
    expect(html).not.toContain('model <b>');
  });
});
