import { join } from 'node:path';
import type { SuiteLogFormat } from '../../../compose/log-formats.js';
import { writeOutputFile } from '../../../compose/output-file.js';
import { storedRuns } from '../../../compose/stored-report.js';
import { MedbenchError } from '../../../core/errors.js';
import type { RunRecord, RunWithResults } from '../../../core/run-record.js';
import { MEDEUREKA_DATASETS } from '../datasets.js';
import { isMtebImport, mtebDatasetMeans } from '../mteb-table.js';
import { type MtebTaskResult, mtebTaskResult } from '../mteb-task-result.js';
import { medeurekaSuite } from '../suite.js';

/** mteb's placeholder for a model whose revision is not known (as embeddings-benchmark/results uses it). */
export const NO_REVISION = 'no_revision_available';

/** A model name as a folder of MTEB results: `org/model` → `org__model`, as mteb's `ModelMeta` does. */
export function mtebModelFolder(name: string): string {
  return name.replace(/\//g, '__').replace(/ /g, '_');
}

function revisionOf(run: RunRecord): string {
  return typeof run.model.revision === 'string' && run.model.revision !== ''
    ? run.model.revision
    : NO_REVISION;
}

/** One run's TaskResults, one per MedEureka dataset whose queries all have MTEB's scores. */
export function runTaskResults({ run, results }: RunWithResults): MtebTaskResult[] {
  return MEDEUREKA_DATASETS.flatMap((dataset) => {
    const scores = mtebDatasetMeans(results.filter((result) => result.params.dataset === dataset.name));
    return scores
      ? [mtebTaskResult({ dataset, datasetRevision: run.datasetId, scores, createdAt: run.createdAt })]
      : [];
  });
}

const PREFIX = 'export logs --format mteb: ';

const refused = (message: string, hint: string) =>
  new MedbenchError({ code: 'USAGE', message: `${PREFIX}${message}`, hint });

function chosenRuns(request: Parameters<SuiteLogFormat['write']>[0]): RunWithResults[] {
  const runs = storedRuns(request.store, medeurekaSuite, request.filter).filter(
    ({ run }) => !isMtebImport(run),
  );
  if (runs.length === 0)
    throw refused(
      'no MedEureka run matches (imported MTEB results are not written again).',
      'Run `medbench run medeureka` first, or check --run, --model and --home (`medbench report --suite medeureka` lists the runs).',
    );
  const byFolder = new Map<string, RunRecord>();
  for (const { run } of runs) {
    const folder = join(mtebModelFolder(run.label), revisionOf(run));
    const other = byFolder.get(folder);
    if (other)
      throw refused(
        `runs ${other.id} and ${run.id} are both "${run.label}" at revision ${revisionOf(run)}, and would be written to the same folder ${folder}.`,
        'Export one of them: --run <id>, or give runs distinct --label when you run them.',
      );
    byFolder.set(folder, run);
  }
  return runs;
}

/**
 * `export logs --format mteb`: each MedEureka run's datasets as MTEB TaskResult files, laid out
 * as embeddings-benchmark/results lays them out: `<model>/<revision>/<task>.json` beside a
 * `model_meta.json` naming the model (the run's label) and its revision.
 */
export const mtebLogFormat: SuiteLogFormat = {
  name: 'mteb',
  description:
    'MedEureka runs as MTEB TaskResult JSON, one file per dataset in <out>/<model>/<revision>/ with a model_meta.json (`medbench import mteb` reads them back)',
  write: (request) => {
    const files: string[] = [];
    for (const entry of chosenRuns(request)) {
      const { run } = entry;
      const folder = join(request.folder, mtebModelFolder(run.label), revisionOf(run));
      const taskResults = runTaskResults(entry);
      for (const taskResult of taskResults) {
        const path = join(folder, `${taskResult.task_name}.json`);
        writeOutputFile(path, `${JSON.stringify(taskResult, null, 2)}\n`);
        files.push(path);
      }
      if (taskResults.length === 0) continue;
      const meta = join(folder, 'model_meta.json');
      const revision = revisionOf(run);
      writeOutputFile(
        meta,
        `${JSON.stringify({ name: run.label, revision: revision === NO_REVISION ? null : revision }, null, 2)}\n`,
      );
      files.push(meta);
    }
    if (files.length === 0)
      throw refused(
        "the runs chosen were stored before medbench computed MTEB's metrics; nothing was written.",
        'Run them again (`medbench run medeureka` with the same options ranks again and stores the new scores).',
      );
    return files;
  },
};
