// The ten published MedOdyssey models' effective lengths per dataset under RULER's rule (every level
// up to it scores ≥ 85.6) and NoLiMa's (every level up to it keeps ≥ 85% of the shortest level's
// score), with 95% bootstrap intervals, the NIAH levels' real prompt lengths under each model's own
// tokenizer (the release's `length(tokens)`) and how many NIAH heatmap cells have a wide interval:
// the release imported into a fresh home, then `medbench report --suite medodyssey --json`
// (docs/long-context.md describes the rules).
// Usage: npm run build && node tools/effective-lengths.js [<shared/data/medodyssey>] [--write]
// prints the tables docs/medodyssey-release.md holds; --write puts them there (between its two markers).
// test/e2e/published-long-context.test.ts checks the doc against it when MEDBENCH_SHARED_DATA is set.
import { join } from 'node:path';
import { WIDE_INTERVAL } from '../dist/report/color-scale.js';
import { levelName } from '../dist/suites/medodyssey/constants.js';
import { effectiveLengthText } from '../dist/suites/medodyssey/effective-length-text.js';
import { cli, generatedSection } from './doc-section.js';

const ROOT = join(import.meta.dirname, '..');
export const DOC = join(ROOT, 'docs', 'medodyssey-release.md');
export const MARKERS = ['<!-- effective-lengths: start -->', '<!-- effective-lengths: end -->'];

/** `report --suite medodyssey --json` of a home, parsed. */
export function releaseReport(home) {
  return JSON.parse(cli(home, ['report', '--suite', 'medodyssey', '--json']));
}

const short = (label) => label.replace(/ \(published\)$/, '');

/** "12 of 30": a run's NIAH cells (ESM) within its window whose interval is wide. */
function wideCells(run, language) {
  const cells = Object.values(run.niah[language].esm.cells)
    .flatMap((byLevel) => Object.values(byLevel))
    .filter((cell) => cell?.interval);
  const wide = cells.filter((cell) => cell.interval.upper - cell.interval.lower >= WIDE_INTERVAL);
  return `${wide.length} of ${cells.length}`;
}

/** The Markdown tables: one per rule (model × dataset), then NIAH's mean prompt tokens per level and wide heatmap cells. */
export function effectiveLengthTables(report) {
  const datasets = [...new Set(report.runs.flatMap((run) => run.effectiveLengths.map((row) => row.dataset)))];
  const rule = (key, title) => {
    const lines = [
      `**${title}**`,
      '',
      `| Model | ${datasets.join(' | ')} |`,
      `| --- |${' --- |'.repeat(datasets.length)}`,
    ];
    for (const run of report.runs) {
      const cells = datasets.map((dataset) => {
        const row = run.effectiveLengths.find((entry) => entry.dataset === dataset);
        return row ? effectiveLengthText(row[key], row.levels) : '';
      });
      lines.push(`| ${short(run.label)} | ${cells.join(' | ')} |`);
    }
    return lines.join('\n');
  };
  const { threshold, fraction } = report.effectiveLength;
  const niahLevels = [
    ...new Set(
      report.runs.flatMap((run) =>
        run.effectiveLengths
          .filter((row) => row.task === 'niah')
          .flatMap((row) => row.levels.map((level) => level.level)),
      ),
    ),
  ].sort((a, b) => a - b);
  const tokens = [
    "**NIAH prompts' mean tokens under each model's own tokenizer, per MIC level** (the release's `length(tokens)`; — : not recorded), " +
      `and the heatmap's cells (ESM, 20 needles each) within the window whose 95% interval spans ≥ ${100 * WIDE_INTERVAL} points`,
    '',
    `| Model | Language | ${niahLevels.map(levelName).join(' | ')} | Wide cells |`,
    `| --- | --- |${' --- |'.repeat(niahLevels.length + 1)}`,
  ];
  for (const run of report.runs)
    for (const row of run.effectiveLengths.filter((entry) => entry.task === 'niah')) {
      const cells = niahLevels.map((level) => {
        const entry = row.levels.find((item) => item.level === level);
        return entry?.tokens ? Math.round(entry.tokens.mean).toLocaleString('en-US') : '—';
      });
      tokens.push(
        `| ${short(run.label)} | ${row.language} | ${cells.join(' | ')} | ${wideCells(run, row.language)} |`,
      );
    }
  return `${[
    rule('fixed', `RULER's rule: every level up to it scores ≥ ${threshold} (main ESM score ×100)`),
    rule(
      'relative',
      `NoLiMa's rule: every level up to it keeps ≥ ${fraction * 100}% of the shortest level's score`,
    ),
    tokens.join('\n'),
  ].join('\n\n')}\n`;
}

/** The tables as docs/medodyssey-release.md holds them, between the markers (`documentedTables()`); run: the tool. */
export const { documented: documentedTables } = generatedSection({
  doc: DOC,
  markers: MARKERS,
  make: (home) => effectiveLengthTables(releaseReport(home)),
  meta: import.meta,
});
