import { resolveHome, storePathIn } from '../../compose/home.js';
import { namedRun } from '../../compose/named-run.js';
import { writeOutputFile } from '../../compose/output-file.js';
import { type RerunRequest, rerunManifest } from '../../compose/rerun.js';
import { runManifest } from '../../compose/run-manifest.js';
import type { RunOutcome } from '../../compose/run-suite.js';
import type { SuitePlugin } from '../../compose/suite-plugin.js';
import type { CommandOutput } from '../../core/command-output.js';
import { Store } from '../../store/store.js';
import { terminalSession } from '../run-session.js';

/** `medbench export manifest <run>`: the run's manifest, with each sample's prompt hash, to --out or stdout. */
export function exportManifestCommand(
  name: string,
  options: { home?: string; out?: string; plugins: readonly SuitePlugin[] },
  output: CommandOutput,
): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const run = namedRun(
      store,
      options.plugins.map((plugin) => plugin.suite),
      name,
    );
    const text = `${JSON.stringify(runManifest(store, run, { promptsOfSamples: true }), null, 2)}\n`;
    if (!options.out) return void output.stdout(text);
    writeOutputFile(options.out, text);
    output.stderr(`Wrote the manifest of ${run.label} (run ${run.id}) to ${options.out}.\n`);
  } finally {
    store.close();
  }
}

/** `medbench rerun <manifest>`: the run rebuilt and checked against the manifest, then run, on the terminal. */
export async function rerunCommand(
  request: RerunRequest,
  options: { output: CommandOutput; plugins: readonly SuitePlugin[] },
): Promise<RunOutcome> {
  const session = terminalSession(options.output);
  try {
    return await rerunManifest(request, session.hooks, options.plugins);
  } finally {
    session.dispose();
  }
}
