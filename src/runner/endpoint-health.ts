import type { MedbenchError } from '../core/errors.js';

/** The first rest of an endpoint that failed (unreachable, refused, no such model, failing every request); doubled each time. */
const FIRST_REST_MS = 30_000;
const LONGEST_REST_MS = 300_000;

interface State {
  downUntil: number;
  failures: number;
  /** When its last answer came back (-Infinity: none yet). */
  answeredAt: number;
}

/**
 * Which endpoints of a model serve. One that fails as a whole (unreachable after its retries,
 * refused credentials, no such model, retryable errors on every request until the retries ran
 * out) rests — 30 s, doubling to 5 min — while the others take its
 * samples; after the rest its workers try again, and an answer makes it healthy. Only when every
 * endpoint is down does the run stop.
 */
export class EndpointHealth<Endpoint extends object = object> {
  private readonly states = new Map<Endpoint, State>();

  constructor(
    endpoints: readonly Endpoint[],
    private readonly now: () => number = Date.now,
  ) {
    for (const endpoint of endpoints)
      this.states.set(endpoint, { downUntil: 0, failures: 0, answeredAt: Number.NEGATIVE_INFINITY });
  }

  /** Milliseconds until `endpoint` may be tried again; 0 when it serves. */
  restLeft(endpoint: Endpoint): number {
    return Math.max(0, (this.states.get(endpoint)?.downUntil ?? 0) - this.now());
  }

  /**
   * Marks `endpoint` down after `error`: its rest, and whether this report began it (several
   * workers of one endpoint report the same outage); undefined when no other endpoint serves (the
   * run cannot go on without it).
   */
  markDown(endpoint: Endpoint, _error: MedbenchError): { restMs: number; began: boolean } | undefined {
    const state = this.states.get(endpoint);
    if (!state) return undefined;
    const others = [...this.states.entries()].filter(([other]) => other !== endpoint);
    if (!others.some(([, other]) => other.downUntil <= this.now())) return undefined;
    if (state.downUntil > this.now()) return { restMs: state.downUntil - this.now(), began: false };
    const rest = Math.min(LONGEST_REST_MS, FIRST_REST_MS * 2 ** state.failures);
    state.failures++;
    state.downUntil = this.now() + rest;
    return { restMs: rest, began: true };
  }

  /** An answer came back: the endpoint serves. */
  markUp(endpoint: Endpoint): void {
    const state = this.states.get(endpoint);
    if (!state) return;
    state.answeredAt = this.now();
    if (state.failures > 0 && state.downUntil <= this.now()) state.failures = 0;
  }

  /** Whether an answer came back from `endpoint` at or after `time` (its other requests got through). */
  answeredSince(endpoint: Endpoint, time: number): boolean {
    return (this.states.get(endpoint)?.answeredAt ?? Number.NEGATIVE_INFINITY) >= time;
  }
}
