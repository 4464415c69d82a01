import type { ModelBinding, Prices } from './model-binding.js';
import type { SampleRequest } from './sample-request.js';

/**
 * A run's spending cap (`--max-cost`): a request is sent only if what was spent, what the
 * requests in flight may cost and what this one may cost stay within the cap. A request's
 * bound is its prompt tokens (the model's tokenizer; without one, the prompt's UTF-8 bytes,
 * which no byte-level tokenizer exceeds) at the input price plus its output token limit at the
 * output price. What an answer cost is what its server reported, at list price: every input token
 * at the input price, no cache or batch discount, an upper bound of what was paid (the report's
 * Cost may be lower). Gemini's explicit caches are charged before they are made or extended
 * (`charge`): their making and their storage for the lifetime asked. The cap holds as far as medbench's tokenizer for the model counts as the
 * provider does.
 */
export class CostBudget {
  private reserved = 0;
  /** What the answers received so far cost. */
  private spent = 0;
  /** True once a request was held back because it might pass the cap. */
  reached = false;

  constructor(
    readonly cap: number,
    private readonly prices: Prices,
  ) {}

  /** The most one request may cost. */
  bound(request: SampleRequest): number {
    const input =
      request.promptTokens ??
      request.messages.reduce((sum, message) => sum + Buffer.byteLength(message.content, 'utf8'), 0);
    // A thinking budget comes on top of the answer's limit (docs/generation-settings.md).
    const output = request.parameters.maxOutputTokens + (request.parameters.thinkingBudget ?? 0);
    return (input * this.prices.inputPerMillion + output * this.prices.outputPerMillion) / 1e6;
  }

  /** Reserves `amount` if what was spent plus every reservation stays within the cap. */
  reserve(amount: number): boolean {
    if (this.spent + this.reserved + amount > this.cap) {
      this.reached = true;
      return false;
    }
    this.reserved += amount;
    return true;
  }

  /**
   * Spends `amount` now if what was spent, every reservation and it stay within the cap: what an
   * explicit prompt cache costs to make and store, counted before it is made or extended. False:
   * nothing spent, and the cap is not reached (the requests go whole, judged as usual).
   */
  charge(amount: number): boolean {
    if (this.spent + this.reserved + amount > this.cap) return false;
    this.spent += amount;
    return true;
  }

  /** What an answer cost at list price (before its reservation is released); negative: a charge taken back. */
  spend(amount: number): void {
    this.spent += amount;
  }

  /** A request is over (answered or not): its reservation goes. */
  release(amount: number): void {
    this.reserved = Math.max(0, this.reserved - amount);
  }
}

/** The budget of a run, or undefined without a cap or without prices (`runSamples` refuses a cap then). */
export function costBudgetFor(model: ModelBinding, maxCost: number | undefined): CostBudget | undefined {
  return maxCost !== undefined && model.prices ? new CostBudget(maxCost, model.prices) : undefined;
}
