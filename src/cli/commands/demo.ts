import { resolveHome } from '../../compose/home.js';
import type { SuitePlugin } from '../../compose/suite-plugin.js';
import type { CommandOutput } from '../../core/command-output.js';
import { EXIT, terminalSession } from '../run-session.js';

/**
 * `medbench demo`: each suite's part (`SuitePlugin.demo`: its shipped sample data, no network),
 * in the registry's order; Ctrl-C ends the demo after the part it stopped (exit code 130).
 */
export async function demoCommand(
  options: { home?: string },
  plugins: readonly SuitePlugin[],
  output: CommandOutput,
): Promise<void> {
  const home = resolveHome(options.home);
  for (const plugin of plugins) {
    if (!plugin.demo) continue;
    const { interrupted } = await plugin.demo({ home, output, session: () => terminalSession(output) });
    if (interrupted) {
      process.exitCode = EXIT.interrupted;
      return;
    }
  }
}
