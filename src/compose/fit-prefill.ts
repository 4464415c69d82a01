import type { ChatCapabilities } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';

/**
 * Fits the protocol's answer prefill to what the model's API can do: kept as a trailing
 * assistant message, trimmed of trailing whitespace (Anthropic), or left out (OpenAI's API).
 */
export function fitPrefill(samples: Sample[], capabilities: ChatCapabilities | undefined): string {
  const prefill = capabilities?.prefill ?? 'none';
  if (prefill === 'continue') return 'sent as a trailing assistant message the model continues';
  for (const sample of samples) {
    const last = sample.messages?.at(-1);
    if (!sample.messages || last?.role !== 'assistant') continue;
    const trimmed = last.content.trimEnd();
    sample.messages =
      prefill === 'trimmed' && trimmed !== ''
        ? [...sample.messages.slice(0, -1), { role: 'assistant', content: trimmed }]
        : sample.messages.slice(0, -1);
  }
  return prefill === 'trimmed'
    ? 'sent without its trailing space (the API refuses trailing whitespace in a prefill)'
    : "left out: this API cannot continue an assistant message, so prompts differ from the protocol's";
}
