import { describe, expect, it } from 'vitest';
import type { RunRecord, StoredResult } from '../../store/store.js';
import { renderMedOdysseyHtml } from './medodyssey-html.js';
import { buildMedOdysseyReport } from './medodyssey-report.js';
import { renderMedOdysseyText } from './medodyssey-text.js';

const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';

function run(label: string, contextWindow: number): RunRecord {
  return {
    id: `run-${label.length}`,
    suite: 'medodyssey',
    label,
    datasetId: 'd',
    datasetPath: null,
    model: { contextWindow },
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

function result(params: Record<string, string | number>, esm: number, task = 'niah'): StoredResult {
  return {
    runId: 'r',
    sampleId: JSON.stringify(params),
    task,
    params,
    gold: null,
    promptHash: null,
    promptChars: null,
    promptTokens: null,
    status: 'ok',
    rawOutput: hostile,
    parsed: hostile,
    scores: { esm, ssm: 1 },
    inputTokens: 100,
    outputTokens: 5,
    cost: 0.25,
    latencyMs: 1,
    attempts: 1,
    cacheHit: false,
    error: null,
    createdAt: 'x',
  };
}

const results = [
  result({ language: 'en', level: 4000, depth: 0 }, 1),
  result({ language: 'en', level: 4000, depth: 50 }, 0),
  result({ language: 'en', level: 200000, depth: 0 }, 1),
  result({ language: 'zh', level: 4000, countingType: 'repeat' }, 1, 'counting'),
];

describe('MedOdyssey report', () => {
  const report = buildMedOdysseyReport([{ run: run(hostile, 128000), results }]);

  it('escapes every label in the HTML and contains no executable markup', () => {
    const html = renderMedOdysseyHtml(report);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // en NIAH heatmap and zh counting chart, ESM and SSM each, and the overview radar
    expect(html.match(/<svg /g)!.length).toBe(5);
  });

  it('adds up usage and prints the table layout with — beyond the window', () => {
    expect(report.runs[0]!.usage).toEqual({ inputTokens: 400, outputTokens: 20, cost: 1 });
    const text = renderMedOdysseyText(report, ['esm']);
    expect(text).toContain('En.NIAH — ESM');
    expect(text).toMatch(/0%\s+1\s+—\s+1\/1/);
    expect(text).toMatch(/ALL\s+1\/2\s+—\s+1\/2/);
    expect(text).toContain('Counting — ESM');
  });
});
