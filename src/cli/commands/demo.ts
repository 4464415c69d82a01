import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, resolveHome, storePathIn } from '../../compose/home.js';
import { storedReport } from '../../compose/stored-report.js';
import { SUITE_PLUGINS } from '../../compose/suites.js';
import type { CommandOutput } from '../../core/command-output.js';
import { Store } from '../../store/store.js';
import {
  buildMedEurekaReport,
  renderMedEurekaHtml,
  renderMedEurekaText,
} from '../../suites/medeureka/medeureka-report.js';
import { medodysseySuite } from '../../suites/medodyssey/suite.js';
import { buildMedOdysseyCommand } from './build-medodyssey.js';
import { runCommand } from './run.js';
import { runSuiteCommand } from './run-suite.js';

/**
 * `medbench demo`: builds NIAH, Counting, KG, Term, Table and Case from the sample data the
 * project ships, runs the extractive baseline, prints the paper's tables and writes an HTML
 * report; then ranks the MedEureka sample with BM25 and LSA. No network.
 */
export async function demoCommand(options: { home?: string }, output: CommandOutput): Promise<void> {
  const home = resolveHome(options.home);
  const folder = join(home, 'demo');
  mkdirSync(folder, { recursive: true });
  const dataset = join(folder, 'medodyssey-sample.jsonl');
  await buildMedOdysseyCommand(
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
    output,
  );
  const summary = await runCommand(
    {
      dataset,
      model: 'baseline:extractive',
      home,
      contextWindow: 128_000,
      tokenizer: 'o200k_base',
      report: false,
    },
    output,
  );
  const store = new Store(storePathIn(home));
  try {
    const report = storedReport(store, medodysseySuite, { labels: ['baseline:extractive'] });
    output.stdout(`${medodysseySuite.renderText(report, {})}\n`);
    const reports = join(home, 'reports');
    mkdirSync(reports, { recursive: true });
    const html = join(reports, 'medodyssey-demo.html');
    writeFileSync(html, medodysseySuite.renderHtml(report));
    output.stdout(`\nHTML report with length × depth heatmaps: ${html}\n`);
    if (summary.interrupted) {
      process.exitCode = 130;
      return;
    }
  } finally {
    store.close();
  }
  await retrievalDemo(home, output);
}

/** The MedEureka part: the sample release (en and zh, five datasets) ranked by BM25 and by LSA. */
async function retrievalDemo(home: string, output: CommandOutput): Promise<void> {
  output.stdout('\nMedEureka sample: BM25 and LSA (TF-IDF + truncated SVD), exact top-500, no network\n\n');
  const data = join(packageRoot(), 'samples', 'medeureka');
  const quiet: CommandOutput = { stdout: () => {}, stderr: output.stderr };
  // MedEureka's run, as `run medeureka` makes it (the MedEureka part of the demo moves into its plugin).
  const medeureka = SUITE_PLUGINS.find((plugin) => plugin.suite.name === 'medeureka')?.run;
  if (!medeureka) throw new Error('the medeureka plugin has no run');
  for (const model of ['bm25', 'lsa']) await runSuiteCommand(medeureka, { data, model, home }, quiet);
  const store = new Store(storePathIn(home));
  try {
    const runs = store.listRuns({ suite: 'medeureka' }).filter((run) => run.datasetPath === data);
    const report = buildMedEurekaReport(runs.map((run) => ({ run, results: store.results(run.id) })));
    output.stdout(`${renderMedEurekaText(report)}\n`);
    const html = join(home, 'reports', 'medeureka-demo.html');
    writeFileSync(html, renderMedEurekaHtml(report));
    output.stdout(`\nHTML report with HR@n curves and radars: ${html}\n`);
  } finally {
    store.close();
  }
}
