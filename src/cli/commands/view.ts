import { resolveHome, storePathIn } from '../../compose/home.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import type { Suite } from '../../core/suite.js';
import { Store } from '../../store/store.js';
import { ReviewData } from '../../view/review-data.js';
import { startViewServer } from '../../view/view-server.js';
import { reviewSettings } from './view-reviewer.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** `medbench view`: serves the viewer until Ctrl-C; opens nothing by itself. */
export async function viewCommand(
  options: {
    home?: string;
    port?: number;
    host?: string;
    suites: readonly Suite[];
    /** `--reviewer`: grades may be given on the review page, stored under this name (docs/review.md). */
    reviewer?: string;
    doubleShare?: number;
    reviewSeed?: string;
    rubric?: string[];
  },
  output: CommandOutput,
): Promise<void> {
  const settings = reviewSettings(options);
  const reviewer = settings.reviewer;
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    output.stderr(
      `warning: binding ${host}: anyone who can reach this address can read your results${reviewer === undefined ? '' : ` and grade as ${reviewer}`} (the viewer has no login).\n`,
    );
  const path = storePathIn(resolveHome(options.home));
  const store = new Store(path, { readonly: true });
  let review: ReviewData;
  try {
    review = new ReviewData(store, options.suites, settings);
  } catch (error) {
    store.close();
    throw error;
  }
  // Grades are the one thing the viewer writes: a second connection, used for nothing else.
  const grades = reviewer === undefined ? undefined : new Store(path);
  const closeStores = () => {
    grades?.close();
    store.close();
  };
  let viewer: Awaited<ReturnType<typeof startViewServer>>;
  try {
    viewer = await startViewServer({
      store,
      suites: options.suites,
      host,
      port: options.port ?? 0,
      review,
      writeGrade: grades && ((grade) => grades.humanGrades.add(grade)),
    });
  } catch (error) {
    closeStores();
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
  output.stderr(
    reviewer === undefined
      ? 'Reading the store read-only. Ctrl-C stops the viewer.\n'
      : `Reading the store read-only; grades on the review page are stored as ${reviewer}. Ctrl-C stops the viewer.\n`,
  );
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
  closeStores();
}
