import { PROVIDER_COLUMNS, providerRows } from '../../compose/provider-table.js';
import type { CommandOutput } from '../../core/command-output.js';
import { renderTextTable } from '../../report/text-table.js';

/** `medbench providers`: every chat provider, how to name it, and what it can do (from its descriptor). */
export function providersCommand(output: CommandOutput): void {
  output.stdout(
    `${renderTextTable([...PROVIDER_COLUMNS], providerRows())}\n` +
      'Restricted (credentialed) data, logprobs (asked of none) and a config to copy per provider: docs/providers/.\n' +
      'Generation settings (topP, seed, stop, penalties, extraBody, reasoning, thinking) each provider takes: docs/generation-settings.md.\n',
  );
}
