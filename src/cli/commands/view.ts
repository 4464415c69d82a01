import { resolveHome, storePathIn } from '../../compose/home.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import type { Suite } from '../../core/suite.js';
import { Store } from '../../store/store.js';
import { startViewServer } from '../../view/view-server.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** `medbench view`: serves the viewer until Ctrl-C; opens nothing by itself. */
export async function viewCommand(
  options: { home?: string; port?: number; host?: string; suites: readonly Suite[] },
  output: CommandOutput,
): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    output.stderr(
      `warning: binding ${host}: anyone who can reach this address can read your results (the viewer has no login).\n`,
    );
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  let viewer: Awaited<ReturnType<typeof startViewServer>>;
  try {
    viewer = await startViewServer({ store, suites: options.suites, host, port: options.port ?? 0 });
  } catch (error) {
    store.close();
    const code = (error as { code?: string }).code;
    throw new MedbenchError({
      code: 'USAGE',
      message: `Cannot listen on ${host}:${options.port ?? 0}${code ? ` (${code})` : ''}.`,
      hint:
        code === 'EADDRINUSE' ? 'Choose another --port, or leave it out for a free one.' : 'Check --host.',
      cause: error,
    });
  }
  output.stdout(`medbench viewer: ${viewer.url}\n`);
  output.stderr('Reading the store read-only. Ctrl-C stops the viewer.\n');
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await viewer.close();
  store.close();
}
