import type { ChatMessage } from '../core/chat-model.js';

/** What a sample sends, as far as its order goes: its conversation, or its prompt as one user message. */
export interface PrefixOrdered {
  id: string;
  prompt: string;
  messages?: readonly ChatMessage[];
}

/** The conversation a sample sends (`sampleRequest` sends the same). */
function conversationOf(item: PrefixOrdered): readonly ChatMessage[] {
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
 * The order a run sends its samples in, so that a prefix cache (vLLM's and SGLang's automatic
 * prefix caching, the providers' prompt caching) serves most of each prompt: the conversations in
 * lexicographic order of their text as sent, which is a depth-first walk of their prefix tree.
 * Prompts that share a prefix are contiguous, nested by the length of what they share, and every
 * prompt sits next to one that shares its longest prefix with it (of all the prompts given).
 * Deterministic: equal conversations go by sample id, then by their place in `samples`. Only the
 * order changes; the samples and what each sends are the same. O(n log n) comparisons, each
 * stopping at the first character two prompts differ in.
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
