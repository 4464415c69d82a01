import type { ChatMessage } from '../core/chat-model.js';

/** What a sample sends, as far as its order goes: its conversation, or its prompt as one user message. */
export interface PrefixOrdered {
  id: string;
  prompt: string;
  messages?: readonly ChatMessage[];
}

/** The conversation a sample sends (`sampleRequest` sends the same). */
export function conversationOf(item: PrefixOrdered): readonly ChatMessage[] {
  return item.messages ?? [{ role: 'user', content: item.prompt }];
}

/**
 * Conversations in the order of their text as sent (each message's role, then its content, then a
 * separator below every character): one that is a prefix of another comes first.
 */
export function compareConversations(left: readonly ChatMessage[], right: readonly ChatMessage[]): number {
  const shared = Math.min(left.length, right.length);
  for (let index = 0; index < shared; index++) {
    const a = left[index] as ChatMessage;
    const b = right[index] as ChatMessage;
    if (a.role !== b.role) return a.role < b.role ? -1 : 1;
    if (a.content !== b.content) return a.content < b.content ? -1 : 1;
  }
  return left.length - right.length;
}

/**
 * The order of a prefix cache (vLLM's and SGLang's automatic prefix caching, the providers' prompt
 * caching): the conversations in lexicographic order of their text as sent, a depth-first walk of
 * their prefix tree. Prompts that share a prefix are contiguous, nested by the length of what they
 * share, and each sits next to one that shares its longest prefix with it (of all the prompts
 * given). Deterministic: equal conversations go by sample id, then by their place in `samples`.
 * O(n log n) comparisons, each stopping at the first character two prompts differ in.
 */
export function prefixOrder<Item extends PrefixOrdered>(samples: readonly Item[]): Item[] {
  const keyed = samples.map((item, index) => ({ item, index, conversation: conversationOf(item) }));
  keyed.sort(
    (left, right) =>
      compareConversations(left.conversation, right.conversation) ||
      (left.item.id < right.item.id ? -1 : left.item.id > right.item.id ? 1 : 0) ||
      left.index - right.index,
  );
  return keyed.map(({ item }) => item);
}

/**
 * How a run hands its samples to its concurrency slots: the prefix order cut into one contiguous
 * run a slot, of near-equal length, and each slot sends its own run's samples one after another.
 * A sample then goes out once the one before it in the walk (sharing the longest prefix) has been
 * answered and cached on the endpoint, not beside it in the same window, where neither could use
 * the other's prefix. A slot whose run is done takes the last sample of the run with most left.
 * Only the order changes: every sample is taken once, and what each sends is the same.
 */
export class PrefixRuns<Item extends PrefixOrdered> {
  /** The prefix order of the samples (`prefixOrder`), as the runs cut it. */
  readonly walk: readonly Item[];
  private readonly runs: Item[][];
  private readonly next: number[];
  private readonly end: number[];

  constructor(samples: readonly Item[], slots: number) {
    const walk = prefixOrder(samples);
    this.walk = walk;
    const count = Math.max(1, Math.floor(slots));
    // The first n mod count runs one sample longer.
    const shorter = Math.floor(walk.length / count);
    const longer = walk.length % count;
    this.runs = Array.from({ length: count }, (_, run) => {
      const start = run * shorter + Math.min(run, longer);
      return walk.slice(start, start + shorter + (run < longer ? 1 : 0));
    });
    this.next = this.runs.map(() => 0);
    this.end = this.runs.map((run) => run.length);
  }

  /** Samples not taken yet. */
  get left(): number {
    return this.runs.reduce((sum, _, run) => sum + this.leftIn(run), 0);
  }

  /** The next sample for `slot` (counted modulo the runs), undefined when every run is done. */
  take(slot: number): Item | undefined {
    const own = slot % this.runs.length;
    if (this.leftIn(own) > 0) return this.runs[own]?.[(this.next[own] as number)++];
    let victim = -1;
    for (let run = 0; run < this.runs.length; run++)
      if (this.leftIn(run) > (victim < 0 ? 0 : this.leftIn(victim))) victim = run;
    if (victim < 0) return undefined;
    this.end[victim] = (this.end[victim] as number) - 1;
    return this.runs[victim]?.[this.end[victim] as number];
  }

  private leftIn(run: number): number {
    return (this.end[run] as number) - (this.next[run] as number);
  }
}
