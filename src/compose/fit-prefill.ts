import type { ChatCapabilities } from '../core/chat-model.js';
import type { Sample } from '../core/sample.js';

/**
 * Fits the protocol's answer prefill to what the model's API can do: kept as a trailing
 * assistant message, trimmed of trailing whitespace (Anthropic), or left out (OpenAI's API).
 * Returns what became of it, as a run's parameters keep it (part of the run's id: its wording
 * stays as it is).
 */
export function fitPrefill(samples: Sample[], capabilities: ChatCapabilities | undefined): string {
  const prefill = capabilities?.prefill ?? 'none';
  if (prefill === 'continue') return 'sent as a trailing assistant message the model continues';
  for (const sample of samples) {
    if (!hasPrefill(sample)) continue;
    const trimmed = sample.messages!.at(-1)!.content.trimEnd();
    sample.messages =
      prefill === 'trimmed' && trimmed !== ''
        ? [...sample.messages!.slice(0, -1), { role: 'assistant', content: trimmed }]
        : sample.messages!.slice(0, -1);
  }
  return prefill === 'trimmed'
    ? 'sent without its trailing space (the API refuses trailing whitespace in a prefill)'
    : "left out: this API cannot continue an assistant message, so prompts differ from the protocol's";
}

const hasPrefill = (sample: Sample) => sample.messages?.at(-1)?.role === 'assistant';

/** Why the model gets no prefill: the setting that refuses one, or the API's own limit. */
export function noPrefillReason(capabilities: ChatCapabilities | undefined): string {
  return capabilities?.noPrefillReason ?? 'this API cannot continue an assistant message';
}

/**
 * The warning a run gives when the model gets no prefill and some of its prompts have one (read
 * before `fitPrefill` removes them); undefined when nothing differs from the protocol's prompts.
 */
export function leftOutPrefillWarning(
  samples: readonly Sample[],
  capabilities: ChatCapabilities | undefined,
): string | undefined {
  if ((capabilities?.prefill ?? 'none') !== 'none') return undefined;
  const prefilled = samples.filter(hasPrefill);
  if (prefilled.length === 0) return undefined;
  const tasks = [...new Set(prefilled.map((sample) => sample.task))].sort().join(', ');
  return `warning: the answer prefill of ${prefilled.length} of ${samples.length} prompts (${tasks}) is left out: ${noPrefillReason(capabilities)}, so those prompts differ from the protocol's.`;
}

/** `fitPrefill` with the warning of what it left out (read before the prefills are removed). */
export function fitPrefillWarned(
  samples: Sample[],
  capabilities: ChatCapabilities | undefined,
): { prefill: string; warning: string | undefined } {
  const warning = leftOutPrefillWarning(samples, capabilities);
  return { prefill: fitPrefill(samples, capabilities), warning };
}
