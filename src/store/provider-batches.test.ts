import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryFolder } from '../../test/support/temporary-folder.js';
import { Store } from './store.js';

const owner = { provider: 'openai', modelId: 'gpt-4.1', endpoint: 'https://api.openai.com/v1' };
const key = (n: number) => String(n).padStart(64, '0');
const answer = (text: string) => ({ text, inputTokens: 10, outputTokens: 2, finishReason: 'stop' });

let store: Store;
afterEach(() => store.close());
const open = () => {
  store = new Store(join(temporaryFolder('medbench-batches-'), 'medbench.sqlite'));
  return store.providerBatches;
};

describe('ProviderBatches: the lifecycle of run --batch in the store', () => {
  it('records each step with what it learnt, and keeps the first submit time', () => {
    const batches = open();
    const batch = batches.prepare(owner, 'run-1', [key(1), key(2)]);
    expect(batch).toMatchObject({ state: 'prepared', size: 2, runId: 'run-1', fileId: undefined });
    batches.advance(batch.id, 'uploaded', { fileId: 'file-1' });
    batches.advance(batch.id, 'submitting', { submittedAt: '2026-11-27T04:00:00.000Z' });
    // A second create after a failed one keeps the first moment: the search looks from there.
    batches.advance(batch.id, 'submitting', { submittedAt: '2026-11-27T05:00:00.000Z' });
    const submitted = batches.advance(batch.id, 'submitted', { batchId: 'batch_1' });
    expect(submitted).toMatchObject({
      state: 'submitted',
      fileId: 'file-1',
      batchId: 'batch_1',
      submittedAt: '2026-11-27T04:00:00.000Z',
    });
    expect(batches.requests(batch.id).sort()).toEqual([key(1), key(2)]);
    expect(batches.active(owner).map((entry) => entry.id)).toEqual([batch.id]);
    expect(batches.active({ ...owner, endpoint: 'elsewhere' })).toEqual([]);
  });

  it('a refused batch: the submission back to submitting, its provider id forgotten and remembered as refused', () => {
    const batches = open();
    const batch = batches.prepare(owner, 'run-1', [key(1), key(2)]);
    batches.advance(batch.id, 'submitting', { submittedAt: '2026-11-27T04:00:00.000Z' });
    batches.advance(batch.id, 'submitted', { batchId: 'msgbatch_other' });
    batches.advance(batch.id, 'ended');
    expect(batches.settledCount(batch.id)).toBe(0);
    const refused = batches.refuse(batch.id, 'msgbatch_other', 'not its batch');
    expect(refused).toMatchObject({
      state: 'submitting',
      batchId: undefined,
      refused: ['msgbatch_other'],
      reason: 'not its batch',
      submittedAt: '2026-11-27T04:00:00.000Z',
    });
    batches.advance(batch.id, 'submitted', { batchId: 'msgbatch_third' });
    expect(batches.refuse(batch.id, 'msgbatch_third', 'again').refused).toEqual([
      'msgbatch_other',
      'msgbatch_third',
    ]);
    batches.settle(refused, [{ customId: key(1), error: 'errored' }]);
    expect(batches.settledCount(batch.id)).toBe(1);
  });

  it('drops a prepared submission only: one that reached the provider stays', () => {
    const batches = open();
    const prepared = batches.prepare(owner, 'run-1', [key(1)]);
    const uploaded = batches.prepare(owner, 'run-1', [key(2)]);
    batches.advance(uploaded.id, 'uploaded', { fileId: 'file-2' });
    batches.discard(prepared.id);
    batches.discard(uploaded.id);
    expect(batches.active(owner).map((entry) => entry.id)).toEqual([uploaded.id]);
  });

  it('settles results into the response cache idempotently, and tells answered from failed per run', () => {
    const batches = open();
    const batch = batches.advance(batches.prepare(owner, 'run-1', [key(1), key(2), key(3)]).id, 'ended');
    const page = [
      { customId: key(1), response: answer('a') },
      { customId: key(2), error: 'status 400: bad request' },
    ];
    batches.settle(batch, page);
    // Read again after a kill: the same rows.
    batches.settle(batch, page);
    batches.failUnsettled(batch.id, 'no result');
    expect(store.getCachedResponse(key(1))).toMatchObject({ text: 'a', inputTokens: 10 });
    expect(store.responseKeys(owner.provider, owner.modelId)).toEqual([key(1)]);
    const outcomes = batches.outcomesOfRun('run-1');
    expect([...outcomes.answered]).toEqual([key(1)]);
    expect(Object.fromEntries(outcomes.failed)).toEqual({
      [key(2)]: 'status 400: bad request',
      [key(3)]: 'no result',
    });
    // A later batch of the run answers one that failed: answered, no longer failed.
    const again = batches.advance(batches.prepare(owner, 'run-1', [key(2)]).id, 'ended');
    batches.settle(again, [{ customId: key(2), response: answer('b') }]);
    expect(Object.fromEntries(batches.outcomesOfRun('run-1').failed)).toEqual({ [key(3)]: 'no result' });
    expect(batches.outcomesOfRun('run-2').answered.size).toBe(0);
  });

  it("names the provider ids other submissions of the model hold, never the submission's own", () => {
    const batches = open();
    const first = batches.advance(batches.prepare(owner, 'run-1', [key(1)]).id, 'submitted', {
      batchId: 'b1',
    });
    const second = batches.advance(batches.prepare(owner, 'run-1', [key(2)]).id, 'submitting', {});
    expect(batches.claimedBy(owner, second.id)).toEqual(['b1']);
    expect(batches.claimedBy(owner, first.id)).toEqual([]);
  });
});
