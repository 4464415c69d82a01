import { describe, expect, it } from 'vitest';
import { doubleRated, type ReviewQueueItem, reviewQueue, reviewToken } from './review-queue.js';

const items: ReviewQueueItem[] = Array.from({ length: 400 }, (_, index) => ({
  runId: index % 2 === 0 ? 'run-a' : 'run-b',
  sampleId: `s${Math.floor(index / 2)}`,
  task: 'meqsum',
}));

describe('reviewQueue', () => {
  it('draws the double-rated share near its size, and the same items for every reviewer of a seed', () => {
    const share = items.filter((item) => doubleRated('seed', item, 0.2)).length / items.length;
    expect(share).toBeGreaterThan(0.14);
    expect(share).toBeLessThan(0.26);
    expect(items.filter((item) => doubleRated('seed', item, 0)).length).toBe(0);
    expect(items.filter((item) => doubleRated('seed', item, 1)).length).toBe(items.length);
    expect(reviewToken('seed', items[0]!)).toBe(reviewToken('seed', { ...items[0]! }));
    expect(reviewToken('seed', items[0]!)).not.toBe(reviewToken('other', items[0]!));
    expect(reviewToken('seed', items[0]!)).not.toContain('run-a');
  });

  it('gives each reviewer their own order with both models mixed, a second grade of the double share first, and never an item they graded', () => {
    const alice = reviewQueue(items, [], { seed: 'seed', doubleShare: 0.2, reviewer: 'alice' });
    const bob = reviewQueue(items, [], { seed: 'seed', doubleShare: 0.2, reviewer: 'bob' });
    expect(alice.next).toHaveLength(400);
    expect(alice.next.map((item) => item.sampleId)).not.toEqual(bob.next.map((item) => item.sampleId));
    const firstTen = new Set(alice.next.slice(0, 10).map((item) => item.runId));
    expect(firstTen.size).toBe(2);
    // Alice grades her first 50; Bob's queue then starts with those of them in the double share.
    const graded = alice.next.slice(0, 50).map((item) => ({ ...item, reviewer: 'alice' }));
    const doubles = graded.filter((item) => doubleRated('seed', item, 0.2));
    expect(doubles.length).toBeGreaterThan(0);
    const bobNext = reviewQueue(items, graded, { seed: 'seed', doubleShare: 0.2, reviewer: 'bob' });
    expect(new Set(bobNext.next.slice(0, doubles.length).map((item) => item.sampleId + item.runId))).toEqual(
      new Set(doubles.map((item) => item.sampleId + item.runId)),
    );
    // Those Alice graded outside the share are nobody's due any more; none is Alice's.
    expect(bobNext.next).toHaveLength(400 - 50 + doubles.length);
    const aliceNext = reviewQueue(items, graded, { seed: 'seed', doubleShare: 0.2, reviewer: 'alice' });
    expect(aliceNext.next).toHaveLength(350);
    expect(aliceNext.counts).toMatchObject({ items: 400, graded: 50, mine: 50, doubleDone: 0 });
    const both = [...graded, ...doubles.map((item) => ({ ...item, reviewer: 'bob' }))];
    const carol = reviewQueue(items, both, { seed: 'seed', doubleShare: 0.2, reviewer: 'carol' });
    expect(carol.next).toHaveLength(350);
    expect(carol.counts.doubleDone).toBe(doubles.length);
  });
});
