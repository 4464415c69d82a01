import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, storePathIn } from '../../../compose/home.js';
import type { SuiteDemoContext } from '../../../compose/suite-plugin.js';
import { Store } from '../../../store/store.js';
import { buildMedEurekaReport, renderMedEurekaHtml, renderMedEurekaText } from '../medeureka-report.js';
import { evaluateRetriever } from './evaluate-retriever.js';

/** Ranks the sample with one retriever; whether Ctrl-C stopped it. */
async function rankSample(data: string, model: string, context: SuiteDemoContext): Promise<boolean> {
  const session = context.session();
  let interrupted = false;
  // Each run's own report is left out: the demo prints one report of both.
  const { onReport: _ownReport, ...hooks } = session.hooks;
  try {
    await evaluateRetriever(
      { data, model, home: context.home },
      {
        ...hooks,
        onComputed: (summary) => {
          interrupted ||= summary.interrupted;
          hooks.onComputed?.(summary);
        },
      },
    );
  } finally {
    session.dispose();
  }
  return interrupted;
}

/**
 * MedEureka's part of `medbench demo`: the sample release (en and zh, five datasets) ranked by
 * BM25 and by LSA, its report printed and written as HTML. No network.
 */
export async function medeurekaDemo(context: SuiteDemoContext): Promise<{ interrupted: boolean }> {
  const { home, output } = context;
  output.stdout('\nMedEureka sample: BM25 and LSA (TF-IDF + truncated SVD), exact top-500, no network\n\n');
  const data = join(packageRoot(), 'samples', 'medeureka');
  let interrupted = false;
  for (const model of ['bm25', 'lsa']) {
    interrupted = await rankSample(data, model, context);
    if (interrupted) break;
  }
  const store = new Store(storePathIn(home));
  try {
    const runs = store.listRuns({ suite: 'medeureka' }).filter((run) => run.datasetPath === data);
    const report = buildMedEurekaReport(runs.map((run) => ({ run, results: store.results(run.id) })));
    output.stdout(`${renderMedEurekaText(report)}\n`);
    const reports = join(home, 'reports');
    mkdirSync(reports, { recursive: true });
    const html = join(reports, 'medeureka-demo.html');
    writeFileSync(html, renderMedEurekaHtml(report));
    output.stdout(`\nHTML report with HR@n curves and radars: ${html}\n`);
  } finally {
    store.close();
  }
  return { interrupted };
}
