import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { datasetPlan } from '../../../compose/dataset-plan.js';
import { packageRoot, storePathIn } from '../../../compose/home.js';
import { runSuite } from '../../../compose/run-suite.js';
import { storedReport } from '../../../compose/stored-report.js';
import type { SuiteDemoContext } from '../../../compose/suite-plugin.js';
import { Store } from '../../../store/store.js';
import { medodysseySuite } from '../suite.js';
import { buildMedOdyssey } from './build-medodyssey.js';

/** The shipped sample release and knowledge sources, built small: three levels, two to four counting sentences. */
async function buildSample(home: string, context: SuiteDemoContext): Promise<string> {
  const folder = join(home, 'demo');
  mkdirSync(folder, { recursive: true });
  const dataset = join(folder, 'medodyssey-sample.jsonl');
  await buildMedOdyssey(
    {
      data: join(packageRoot(), 'samples', 'medodyssey'),
      sources: join(packageRoot(), 'samples', 'medodyssey-sources'),
      kgQuestions: '10',
      out: dataset,
      task: 'all',
      lang: 'all',
      levels: '1000,1500,2000',
      mic: 'ratio',
      tokenizers: 'o200k_base',
      haystack: 'medical',
      seed: 'demo',
      countingSentences: '2-4',
    },
    context.output,
  );
  return dataset;
}

/**
 * MedOdyssey's part of `medbench demo`: builds NIAH, Counting, KG, Term, Table and Case from the
 * sample data the project ships, runs the extractive baseline (the dataset run's plan, through
 * `runSuite`), prints the paper's tables and writes an HTML report. No network.
 */
export async function medodysseyDemo(context: SuiteDemoContext): Promise<{ interrupted: boolean }> {
  const { home, output } = context;
  const dataset = await buildSample(home, context);
  const request = {
    dataset,
    model: 'baseline:extractive',
    home,
    contextWindow: 128_000,
    tokenizer: 'o200k_base',
    report: false,
  };
  const session = context.session();
  let interrupted: boolean;
  try {
    const outcome = await runSuite(await datasetPlan(request, [medodysseySuite]), request, session.hooks);
    interrupted = outcome.summary.interrupted;
  } finally {
    session.dispose();
  }
  const store = new Store(storePathIn(home));
  try {
    const report = storedReport(store, medodysseySuite, { labels: ['baseline:extractive'] });
    output.stdout(`${medodysseySuite.renderText(report, {})}\n`);
    const reports = join(home, 'reports');
    mkdirSync(reports, { recursive: true });
    const html = join(reports, 'medodyssey-demo.html');
    writeFileSync(html, medodysseySuite.renderHtml(report));
    output.stdout(`\nHTML report with length × depth heatmaps: ${html}\n`);
  } finally {
    store.close();
  }
  return { interrupted };
}
