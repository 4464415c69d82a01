import { join, resolve } from 'node:path';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { writeOutputFile } from '../../compose/output-file.js';
import { parseChoiceList } from '../../compose/parse-options.js';
import { writeReportCsv } from '../../compose/report-csv.js';
import { reportDocument } from '../../compose/report-document.js';
import { manifestsOf, withRunManifests } from '../../compose/report-manifests.js';
import { reportRanks } from '../../compose/report-ranks.js';
import { storedRuns } from '../../compose/stored-report.js';
import { suiteNamed } from '../../compose/suites.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import type { Suite, SuiteReportOptions } from '../../core/suite.js';
import { NOLIMA_FRACTION, RULER_THRESHOLD } from '../../metrics/effective-length.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../../metrics/uncertainty/index.js';
import { limitedRuns, renderLimitedText, withLimitedSection } from '../../report/limited-runs.js';
import { renderRanksText, withRanksSection } from '../../report/rank-table.js';
import { renderSettingsText, runSettings, withSettingsSection } from '../../report/run-settings.js';
import { renderUsageText, usageByTask, withUsageSection } from '../../report/usage-table.js';
import { Store } from '../../store/store.js';
import { writeStaticSite } from '../../view/static-site.js';
import { checkBase, nothingMatched } from './report-checks.js';
import { type ReportTextOptions, reportText } from './report-text.js';

export interface ReportCommandOptions extends ReportTextOptions {
  home?: string;
  suite: string;
  run?: string[];
  model?: string[];
  metric?: string;
  json?: boolean;
  html?: string;
  /** A folder: each table as a CSV file, their paths on stdout. */
  csv?: string;
  /** The run every other run is compared with (CLUE, Figure 5). */
  base?: string;
  /** false: no 95% intervals (`--no-intervals`); they are computed by default. */
  intervals?: boolean;
  /** B of the bootstrap intervals (`--bootstrap-resamples`, default 1000). */
  bootstrapResamples?: number;
  /** Seed of the bootstrap intervals (`--seed`). */
  seed?: number;
  /** RULER's threshold of the effective length (`--effective-threshold`, MedOdyssey). */
  effectiveThreshold?: number;
  /** NoLiMa's fraction of the effective length (`--effective-fraction`, MedOdyssey). */
  effectiveFraction?: number;
  /** The suites the program knows. */
  suites: readonly Suite[];
}

/** `--metric` of every suite that has text metrics, for the option's choices. */
export function textMetricChoices(suites: readonly Suite[]): string[] {
  return [...new Set(suites.flatMap((suite) => suite.textMetrics ?? []))];
}

/** The interval settings of `report` (B and seed); none with `--no-intervals`, which takes neither. */
function intervalOptions(options: ReportCommandOptions): Pick<SuiteReportOptions, 'intervals'> {
  if (options.intervals === false) {
    const given =
      options.bootstrapResamples !== undefined
        ? '--bootstrap-resamples'
        : options.seed !== undefined
          ? '--seed'
          : undefined;
    if (given)
      throw new MedbenchError({
        code: 'USAGE',
        message: `${given} sets the bootstrap of the intervals, which --no-intervals leaves out: drop one of them.`,
      });
    return {};
  }
  return {
    intervals: {
      resamples: options.bootstrapResamples ?? DEFAULT_RESAMPLES,
      seed: options.seed ?? DEFAULT_SEED,
    },
  };
}

/** The effective-length rules' settings when either is given (`--effective-threshold`, `--effective-fraction`). */
function effectiveLengthOptions(options: ReportCommandOptions): Pick<SuiteReportOptions, 'effectiveLength'> {
  if (options.effectiveThreshold === undefined && options.effectiveFraction === undefined) return {};
  return {
    effectiveLength: {
      threshold: options.effectiveThreshold ?? RULER_THRESHOLD,
      fraction: options.effectiveFraction ?? NOLIMA_FRACTION,
    },
  };
}

/** `medbench report`: tables on stdout, or --json, or a self-contained --html file. */
export function reportCommand(options: ReportCommandOptions, output: CommandOutput): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    if (options.html && !/\.html?$/i.test(options.html)) {
      // A folder: the viewer as a static site, every suite, opening from disk.
      const folder = resolve(options.html);
      const { files, bytes, promptsLeftOut } = writeStaticSite(store, folder, options.suites);
      const leftOut =
        promptsLeftOut > 0
          ? ` ${promptsLeftOut} prompts beyond the site's prompt budget were left out (\`medbench view\` shows them).`
          : '';
      output.stderr(
        `Wrote a static site of ${files} files (${(bytes / 1e6).toFixed(1)} MB) to ${folder}; open ${join(folder, 'index.html')}.${leftOut}\n`,
      );
      return;
    }
    const suite = suiteNamed(options.suite, options.suites);
    if (options.metric && !suite.textMetrics)
      throw new MedbenchError({
        code: 'USAGE',
        message: `--metric: the ${suite.title} report has no metric choice.`,
      });
    const reportOptions: SuiteReportOptions = {
      ...(options.metric ? { metrics: parseChoiceList('--metric', options.metric, suite.textMetrics!) } : {}),
      ...(options.base ? { base: options.base } : {}),
      ...intervalOptions(options),
      ...effectiveLengthOptions(options),
    };
    const filter = {
      ...(options.run ? { runIds: options.run } : {}),
      ...(options.model ? { labels: options.model } : {}),
    };
    const runs = storedRuns(store, suite, filter);
    checkBase(options.base, runs, suite);
    const report = suite.report(runs, reportOptions);
    if (suite.runCount(report) === 0) throw nothingMatched(store, suite, options.suites, filter);
    const usage = usageByTask(runs, (runId) => store.explicitCaches.costsOf(runId));
    // Runs made with --limit: their scores are of the first samples only.
    const limited = limitedRuns(runs);
    // What each run generated with: runs that share a label differ in these, not only in an id.
    const settings = runSettings(runs);
    // Leaderboards with bootstrap rank intervals (text and HTML; the suite's scored variants; B and seed as the intervals').
    const ranks =
      options.json || options.csv || !reportOptions.intervals
        ? []
        : reportRanks(suite, runs, { metrics: reportOptions.metrics, ...reportOptions.intervals });
    if (options.html) {
      const path = resolve(options.html);
      const page = withRanksSection(withUsageSection(suite.renderHtml(report), usage), ranks);
      writeOutputFile(path, withLimitedSection(withSettingsSection(page, settings), limited));
      output.stderr(`Wrote ${path}\n`);
    }
    if (options.csv) {
      const files = writeReportCsv({ folder: options.csv, suite, report, reportOptions, usage });
      output.stdout(files.map((file) => `${file}\n`).join(''));
    } else if (options.json)
      output.stdout(
        `${JSON.stringify(reportDocument(suite, withRunManifests(report, manifestsOf(store, runs)), { usage, limited, settings }), null, 2)}\n`,
      );
    else if (!options.html) {
      const sections = [
        renderRanksText(ranks),
        renderSettingsText(settings),
        renderUsageText(usage),
        renderLimitedText(limited),
      ].filter(Boolean);
      output.stdout(
        reportText(
          `${suite.renderText(report, reportOptions)}\n${sections.map((text) => `\n${text}\n`).join('')}`,
          suite,
          options,
        ),
      );
    }
  } finally {
    store.close();
  }
}
