import type { RunRecord, StoredResult } from '../../src/core/run-record.js';
import { NO_MODEL_CALL, type ResultRecord } from '../../src/store/store.js';

/** A run record for tests: a MedOdyssey run by medbench, with whatever the test sets. */
export function testRun(fields: Partial<RunRecord> & Pick<RunRecord, 'id'>): RunRecord {
  return {
    suite: 'medodyssey',
    label: 'm',
    datasetId: 'd',
    datasetPath: null,
    model: {},
    parameters: {},
    source: 'medbench',
    scoringMode: 'standard',
    createdAt: '2026-11-23T00:00:00Z',
    ...fields,
  };
}

/** A stored result for tests: an answered sample of run "r", with whatever the test sets. */
export function testResult(
  fields: Partial<StoredResult> & Pick<StoredResult, 'task' | 'gold' | 'rawOutput'>,
): StoredResult {
  return {
    runId: 'r',
    sampleId: 's',
    params: {},
    promptChars: null,
    promptTokens: null,
    status: 'ok',
    parsed: null,
    scores: {},
    promptHash: null,
    createdAt: '2026-11-23T00:00:00Z',
    ...NO_MODEL_CALL,
    ...fields,
  };
}

/** A result as a run writes it, for tests: an answered NIAH sample, with whatever the test sets. */
export function testResultRecord(
  fields: Partial<ResultRecord> & Pick<ResultRecord, 'runId' | 'sampleId'>,
): ResultRecord {
  const prompt = `prompt ${fields.sampleId}`;
  return {
    task: 'niah',
    params: { language: 'en', level: 4000 },
    gold: { answers: ['x'] },
    prompt,
    promptChars: prompt.length,
    promptTokens: 3,
    status: 'ok',
    rawOutput: 'x',
    parsed: 'x',
    scores: { esm: 1 },
    inputTokens: 3,
    outputTokens: 1,
    cost: null,
    latencyMs: 20,
    attempts: 1,
    cacheHit: false,
    error: null,
    ...fields,
  };
}

/** A fresh answer for the response cache, for tests: `text` from model "m" of provider "p". */
export function testCacheEntry(cacheKey: string, text = 'x') {
  return {
    cacheKey,
    provider: 'p',
    modelId: 'm',
    response: { text, inputTokens: 3, outputTokens: 1, finishReason: 'stop' },
  };
}
