import type { Command } from 'commander';

/** `medbench import responses`: the command as typed, from the program down. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent)
    names.unshift(current.name());
  return names.join(' ');
}

/** `(see medbench run --help)`: where a command's options are listed. */
export function usageHint(command: Command): string {
  return `(see ${commandPath(command)} --help)`;
}

/**
 * A usage error (unknown option, missing or bad value) prints commander's one-line message and
 * where to look, `(see medbench run --help)`, not the command's whole option list.
 */
export function showUsageHints(command: Command): void {
  command.showHelpAfterError(usageHint(command));
  for (const subcommand of command.commands) showUsageHints(subcommand);
}
