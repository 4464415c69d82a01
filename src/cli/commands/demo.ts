import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMedOdysseyHtml, renderMedOdysseyText } from '../../report/medodyssey-report.js';
import { Store } from '../../store/store.js';
import { packageRoot, resolveHome, storePathIn } from '../home.js';
import { buildMedOdysseyCommand, type CommandOutput } from './build-medodyssey.js';
import { medodysseyReportFor } from './report.js';
import { runCommand } from './run.js';

/**
 * `medbench demo`: builds NIAH, Counting, KG, Term, Table and Case from the sample data the
 * project ships, runs the extractive baseline, prints the paper's tables and writes an HTML
 * report. No network.
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
      countingSentences: '3-5',
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
    const report = medodysseyReportFor(store, { labels: ['baseline:extractive'] });
    output.stdout(`${renderMedOdysseyText(report)}\n`);
    const reports = join(home, 'reports');
    mkdirSync(reports, { recursive: true });
    const html = join(reports, 'medodyssey-demo.html');
    writeFileSync(html, renderMedOdysseyHtml(report));
    output.stdout(`\nHTML report with length × depth heatmaps: ${html}\n`);
    if (summary.interrupted) process.exitCode = 130;
  } finally {
    store.close();
  }
}
