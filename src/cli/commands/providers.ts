import { CHAT_PROVIDERS } from '../../compose/chat-providers.js';
import { PROVIDER_CAPABILITIES } from '../../compose/provider-capabilities.js';
import type { CommandOutput } from '../../core/command-output.js';
import { renderTextTable } from '../../report/text-table.js';

/** `medbench providers`: every chat provider, how to name it, and what it can do. */
export function providersCommand(output: CommandOutput): void {
  const rows = Object.entries(CHAT_PROVIDERS).map(([name, entry]) => {
    const declared = PROVIDER_CAPABILITIES[name as keyof typeof PROVIDER_CAPABILITIES];
    return [
      name,
      declared.embeddings ? 'yes' : 'no',
      declared.tokenCounting,
      declared.maxContext ? 'yes' : 'no',
      declared.prefill,
      entry.signIn,
      entry.specForm,
    ];
  });
  output.stdout(
    `${renderTextTable(['Provider', 'Embeddings', 'Token counting', 'Max context', 'Prefill', 'Sign-in', 'How to name it'], rows)}\n` +
      'Restricted (credentialed) data, logprobs (asked of none) and a config to copy per provider: docs/providers/.\n' +
      'Generation settings (topP, seed, stop, penalties, extraBody, reasoning, thinking) each provider takes: docs/generation-settings.md.\n',
  );
}
