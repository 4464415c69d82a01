import { describe, expect, it } from 'vitest';
import { SlotTurn } from './slot-turn.js';

describe('SlotTurn', () => {
  it('gives the slot to one taker at a time, in the order they asked, handing it straight on', async () => {
    const turn = new SlotTurn();
    const order: string[] = [];
    const first = await turn.take();
    const second = turn.take().then((handOn) => {
      order.push('second');
      return handOn;
    });
    const third = turn.take().then((handOn) => {
      order.push('third');
      return handOn;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    // Handing on twice is handing on once: the third still waits.
    first();
    const handOnSecond = await second;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['second']);
    handOnSecond();
    const handOnThird = await third;
    expect(order).toEqual(['second', 'third']);
    handOnThird();
    // Free again: taken at once.
    const again = await Promise.race([
      turn.take(),
      new Promise((resolve) => setTimeout(resolve, 50, 'waited')),
    ]);
    expect(typeof again).toBe('function');
  });

  it('is busy while held, and says when it is let go with no one waiting', async () => {
    let freed = 0;
    const turn = new SlotTurn(() => freed++);
    expect(turn.busy).toBe(false);
    const first = await turn.take();
    expect(turn.busy).toBe(true);
    const second = turn.take();
    first();
    // Handed straight on: still busy, not freed.
    expect([turn.busy, freed]).toEqual([true, 0]);
    (await second)();
    expect([turn.busy, freed]).toEqual([false, 1]);
  });
});
