// Which neighbouring pairs of the paper's ranking of the ten published MedOdyssey models stay
// significantly different, dataset by dataset: the release imported into a fresh home, the models
// ranked per dataset by their ESM score (`report --json`: the paper's numbers as medbench reproduces
// them), and `medbench compare --json` run on every pair of neighbours; a pair is different when
// compare's Holm-adjusted p (across the datasets of that comparison) is below 0.05.
// Usage: npm run build && node tools/neighbour-pairs.js [<shared/data/medodyssey>] [--write]
// prints the table docs/statistics.md holds; --write puts it there (between its two markers).
// test/e2e/statistics-doc.test.ts checks the doc against it when MEDBENCH_SHARED_DATA is set.
import { join } from 'node:path';
import { cli, generatedSection } from './doc-section.js';

const ROOT = join(import.meta.dirname, '..');
export const DOC = join(ROOT, 'docs', 'statistics.md');
export const MARKERS = ['<!-- neighbour-pairs: start -->', '<!-- neighbour-pairs: end -->'];
const ALPHA = 0.05;

export { importRelease } from './doc-section.js';

const short = (label) => label.replace(/ \(published\)$/, '');
const percent = (value) => value.toFixed(1);

/** Per dataset: the runs best first by their ESM score, and for each neighbouring pair compare's figures of that dataset. */
export function neighbourPairs(home) {
  const report = JSON.parse(cli(home, ['report', '--suite', 'medodyssey', '--json']));
  const datasets = [...new Set(report.runs.flatMap((run) => Object.keys(run.overview)))];
  const compared = new Map();
  const comparison = (a, b) => {
    const key = `${a.runId} ${b.runId}`;
    if (!compared.has(key)) compared.set(key, JSON.parse(cli(home, ['compare', a.runId, b.runId, '--json'])));
    return compared.get(key);
  };
  return datasets.flatMap((dataset) => {
    const ranked = report.runs
      .filter((run) => run.overview[dataset] !== null && run.overview[dataset] !== undefined)
      .sort((x, y) => y.overview[dataset] - x.overview[dataset] || x.label.localeCompare(y.label));
    if (ranked.length < 2) return [];
    const pairs = ranked.slice(1).map((lower, index) => {
      const upper = ranked[index];
      const task = comparison(upper, lower).tasks.find((entry) => entry.task === dataset);
      return {
        upper: upper.label,
        lower: lower.label,
        task,
        different: task !== undefined && task.pHolm < ALPHA,
      };
    });
    return [
      { dataset, ranked: ranked.map((run) => ({ label: run.label, score: run.overview[dataset] })), pairs },
    ];
  });
}

/** The Markdown table of `neighbourPairs`. */
export function neighbourTable(rows) {
  const lines = [
    "| Dataset | The paper's ranking (ESM, %): `>` significantly different neighbours, `≈` not | Different |",
    '| --- | --- | --- |',
  ];
  for (const { dataset, ranked, pairs } of rows) {
    const chain = ranked
      .map((run, index) => {
        const model = `${short(run.label)} ${percent(run.score)}`;
        return index === 0 ? model : `${pairs[index - 1].different ? '>' : '≈'} ${model}`;
      })
      .join(' ');
    const different = pairs.filter((pair) => pair.different).length;
    lines.push(`| ${dataset} | ${chain} | ${different} of ${pairs.length} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** The table as docs/statistics.md holds it, between the markers (`documentedTable()`); run: the tool. */
export const { documented: documentedTable } = generatedSection({
  doc: DOC,
  markers: MARKERS,
  make: (home) => neighbourTable(neighbourPairs(home)),
  meta: import.meta,
});
