import { PROVIDER_COLUMNS, providerRows } from '../../compose/provider-table.js';
import type { CommandOutput } from '../../core/command-output.js';
import { PROVIDERS } from '../../providers/registry.js';
import { renderTextTable } from '../../report/text-table.js';

/** `medbench providers --json`: each provider's name, spec form, sign-in and declared capabilities. */
function providersJson(): string {
  const providers = PROVIDERS.map((provider) => ({
    name: provider.name,
    title: provider.docs.title,
    spec: provider.spec.form,
    transport: provider.transport,
    signIn: provider.signIn,
    keyRequired: provider.keyRequired,
    embeddings: provider.embedding !== undefined,
    capabilities: provider.capabilities,
  }));
  return `${JSON.stringify(providers, null, 2)}\n`;
}

/** `medbench providers`: every chat provider, how to name it, and what it can do (from its descriptor). */
export function providersCommand(output: CommandOutput, options: { json?: boolean } = {}): void {
  if (options.json) {
    output.stdout(providersJson());
    return;
  }
  output.stdout(
    `${renderTextTable([...PROVIDER_COLUMNS], providerRows())}\n` +
      'Restricted (credentialed) data, logprobs (asked of none) and a config to copy per provider: docs/providers/.\n' +
      'Generation settings (topP, seed, stop, penalties, extraBody, reasoning, thinking) each provider takes: docs/generation-settings.md.\n',
  );
}
