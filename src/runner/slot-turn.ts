/**
 * Turns at one concurrency slot: at most one request of the slot is on the wire at a time. Two
 * workers share a slot, so that one prepares its next sample (request, cache look-up, claim)
 * while the other's request is out, and sends the moment that request is answered: the handover
 * is a resolved promise, within the callback that read the answer, not a later turn of the loop.
 */
export class SlotTurn {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  /** `onFree`: called when the slot is let go with no worker waiting for it. */
  constructor(private readonly onFree: () => void = () => {}) {}

  /** Whether a worker holds the slot (its request is out, or about to be). */
  get busy(): boolean {
    return this.held;
  }

  /** Resolves when the slot is this caller's; call the function it gives once to hand it on. */
  async take(): Promise<() => void> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = true;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      // Handed straight to the next waiter: the slot stays held.
      if (next) next();
      else {
        this.held = false;
        this.onFree();
      }
    };
  }
}
