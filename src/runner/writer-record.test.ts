import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testRun } from '../../test/support/test-run.js';
import { preparePrompt, type ResultRecord, Store } from '../store/store.js';
import { applyStoreWrites, type StoreWrite } from './store-writes.js';
import { decodeWriterMessage, encodeWriterMessage } from './writer-record.js';

function result(sampleId: string, prompt: ResultRecord['prompt']): ResultRecord {
  return {
    runId: 'run-1',
    sampleId,
    task: 'niah',
    params: { language: 'zh', level: 4000, depth: 0.25 },
    gold: { answers: ['甲', 'B'] },
    prompt,
    promptChars: 12,
    promptTokens: 9,
    status: 'ok',
    rawOutput: '答案: 甲 \u2028 "quoted"',
    parsed: { answer: '甲', missing: undefined },
    scores: { accuracy: 1, f1: Number.NaN },
    inputTokens: 9,
    outputTokens: 2,
    cost: null,
    latencyMs: 21.5,
    attempts: 1,
    cacheHit: false,
    error: null,
  };
}

function encoded(writes: StoreWrite[]): Uint8Array {
  const { length, fill } = encodeWriterMessage({ ids: [3, 4], writes });
  const bytes = new Uint8Array(length);
  fill(bytes);
  return bytes;
}

describe('writer records', () => {
  it('store what the writes themselves store, compressed prompts included', () => {
    const long = `${'Case notes, day one. '.repeat(2000)}结束`;
    const writes: StoreWrite[] = [
      { kind: 'run', run: testRun({ id: 'run-1', label: 'm', datasetId: 'd' }) },
      {
        kind: 'answer',
        entry: {
          cacheKey: 'k1',
          provider: 'openai-compatible',
          modelId: 'm',
          response: { text: '答案: 甲', inputTokens: 9, outputTokens: 2, finishReason: null },
        },
      },
      { kind: 'result', result: result('s1', 'short prompt') },
      { kind: 'result', result: result('s2', preparePrompt(long)) },
      { kind: 'result', result: result('s3', null) },
      { kind: 'result', result: result('s4', preparePrompt(`${long} again`)) },
    ];
    expect(preparePrompt(long).encoding).toBe('gzip');
    const message = decodeWriterMessage(encoded(writes));
    expect(message.ids).toEqual([3, 4]);
    const folder = mkdtempSync(join(tmpdir(), 'medbench-record-'));
    try {
      const direct = new Store(join(folder, 'direct.sqlite'));
      const decoded = new Store(join(folder, 'decoded.sqlite'));
      direct.transaction(() => applyStoreWrites(direct, writes));
      decoded.transaction(() => applyStoreWrites(decoded, message.writes));
      const rows = (store: Store) =>
        store
          .results('run-1')
          .map(({ createdAt: _, ...row }) => ({ ...row, prompt: store.getPrompt(row.promptHash ?? '') }));
      expect(rows(decoded)).toEqual(rows(direct));
      expect(rows(decoded)[1]!.prompt).toBe(long);
      expect(decoded.getCachedResponse('k1')).toEqual(direct.getCachedResponse('k1'));
      expect(decoded.getRun('run-1')).toEqual(direct.getRun('run-1'));
      direct.close();
      decoded.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
