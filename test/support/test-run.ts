import type { RunRecord, StoredResult } from '../../src/core/run-record.js';
import { NO_MODEL_CALL } from '../../src/store/store.js';

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
