import type { RunRecord } from '../../src/core/run-record.js';

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
