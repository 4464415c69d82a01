import { join, resolve } from 'node:path';
import { resolveHome, storePathIn } from '../../compose/home.js';
import { MedbenchError } from '../../core/errors.js';
import { buildClueReport, renderClueHtml, renderClueText } from '../../report/clue-report.js';
import {
  buildMedEurekaReport,
  renderMedEurekaHtml,
  renderMedEurekaText,
} from '../../report/medeureka-report.js';
import {
  buildMedOdysseyReport,
  type MedOdysseyReport,
  renderMedOdysseyHtml,
  renderMedOdysseyText,
} from '../../report/medodyssey-report.js';
import { Store } from '../../store/store.js';
import { writeStaticSite } from '../../view/static-site.js';
import { writeOutputFile } from '../output-file.js';
import { parseChoiceList } from '../parse-options.js';
import type { CommandOutput } from './build-medodyssey.js';

export interface ReportCommandOptions {
  home?: string;
  suite: string;
  run?: string[];
  model?: string[];
  metric?: string;
  json?: boolean;
  html?: string;
  /** clue: the model every other run is compared with (Figure 5). */
  base?: string;
}

/** The MedOdyssey report of the stored runs (all, or those chosen by id prefix or label). */
export function medodysseyReportFor(
  store: Store,
  filter: { runIds?: string[]; labels?: string[] } = {},
): MedOdysseyReport {
  const runs = store
    .listRuns({ suite: 'medodyssey' })
    .filter((run) => !filter.runIds || filter.runIds.some((id) => run.id.startsWith(id)))
    .filter((run) => !filter.labels || filter.labels.includes(run.label));
  return buildMedOdysseyReport(runs.map((run) => ({ run, results: store.results(run.id) })));
}

/** Stored runs of a suite, narrowed by --run (id prefixes) and --model (labels). */
function selectRuns(store: Store, suite: string, options: Pick<ReportCommandOptions, 'run' | 'model'>) {
  return store
    .listRuns({ suite })
    .filter((run) => !options.run || options.run.some((id) => run.id.startsWith(id)))
    .filter((run) => !options.model || options.model.includes(run.label));
}

/** Writes --html when asked, then prints --json or the text tables (text only when neither file nor JSON is wanted). */
function emitReport(
  options: ReportCommandOptions,
  output: CommandOutput,
  forms: { report: unknown; html: () => string; text: () => string },
): void {
  if (options.html) {
    const path = resolve(options.html);
    writeOutputFile(path, forms.html());
    output.stderr(`Wrote ${path}\n`);
  }
  if (options.json) output.stdout(`${JSON.stringify(forms.report, null, 2)}\n`);
  else if (!options.html) output.stdout(`${forms.text()}\n`);
}

/** `medbench report`: tables on stdout, or --json, or a self-contained --html file. */
export function reportCommand(options: ReportCommandOptions, output: CommandOutput): void {
  if (options.html && !/\.html?$/i.test(options.html)) {
    // A folder: the viewer as a static site, every suite, opening from disk.
    const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
    try {
      const folder = resolve(options.html);
      const { files } = writeStaticSite(store, folder);
      output.stderr(
        `Wrote a static site of ${files} files to ${folder}; open ${join(folder, 'index.html')}\n`,
      );
    } finally {
      store.close();
    }
    return;
  }
  if (options.suite === 'clue') {
    clueReportCommand(options, output);
    return;
  }
  if (options.suite === 'medeureka') {
    const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
    try {
      const runs = selectRuns(store, 'medeureka', options);
      if (runs.length === 0) {
        throw new MedbenchError({
          code: 'DATA_NOT_FOUND',
          message: `No matching MedEureka runs in ${store.path}.`,
          hint: 'Run `medbench run medeureka --data <folder> --model bm25` first.',
        });
      }
      const report = buildMedEurekaReport(runs.map((run) => ({ run, results: store.results(run.id) })));
      emitReport(options, output, {
        report,
        html: () => renderMedEurekaHtml(report),
        text: () => renderMedEurekaText(report),
      });
    } finally {
      store.close();
    }
    return;
  }
  if (options.suite !== 'medodyssey') {
    throw new MedbenchError({
      code: 'USAGE',
      message: `--suite ${options.suite}: medodyssey, clue or medeureka.`,
    });
  }
  const metrics = options.metric
    ? parseChoiceList('--metric', options.metric, ['esm', 'ssm'] as const)
    : undefined;
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const report = medodysseyReportFor(store, {
      ...(options.run ? { runIds: options.run } : {}),
      ...(options.model ? { labels: options.model } : {}),
    });
    if (report.runs.length === 0) {
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `No matching MedOdyssey runs in ${store.path}.`,
        hint: 'Run `medbench demo`, `medbench run` or `medbench import medodyssey-outputs` first, or check --home.',
      });
    }
    emitReport(options, output, {
      report,
      html: () => renderMedOdysseyHtml(report),
      text: () => renderMedOdysseyText(report, metrics),
    });
  } finally {
    store.close();
  }
}

function clueReportCommand(options: ReportCommandOptions, output: CommandOutput): void {
  const store = new Store(storePathIn(resolveHome(options.home)), { readonly: true });
  try {
    const runs = selectRuns(store, 'clue', options);
    if (runs.length === 0) {
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `No matching CLUE runs in ${store.path}.`,
        hint: 'Run `medbench run clue --data <folder> --model baseline` first, or check --home.',
      });
    }
    const report = buildClueReport(
      runs.map((run) => ({ run, results: store.results(run.id) })),
      options.base ? { base: options.base } : {},
    );
    emitReport(options, output, {
      report,
      html: () => renderClueHtml(report),
      text: () => renderClueText(report),
    });
  } finally {
    store.close();
  }
}
