import { MedbenchError } from '../core/errors.js';
import type { RunRecord } from '../core/run-record.js';
import type { Suite } from '../core/suite.js';
import type { Store } from '../store/store.js';
import { didYouMean } from './store-contents.js';

/** A run as reports name it: its label, with `#` and its id's start when runs share the label. */
export function runName(run: RunRecord): string {
  return `${run.label}#${run.id.slice(0, 6)}`;
}

/** What `label#id`, `label #id`, a label or an id prefix names among the runs of the known suites. */
function candidates(runs: readonly RunRecord[], name: string): RunRecord[] {
  const cut = name.lastIndexOf('#');
  if (cut >= 0) {
    const label = name.slice(0, cut).trim();
    const id = name.slice(cut + 1).trim();
    return runs.filter((run) => run.id.startsWith(id) && (label === '' || run.label === label));
  }
  const labelled = runs.filter((run) => run.label === name);
  return labelled.length > 0 ? labelled : runs.filter((run) => name.length >= 4 && run.id.startsWith(name));
}

/**
 * The one stored run a name stands for, as `report` names runs: a label (`gpt-4o`), or a label
 * and the start of the run's id (`gpt-4o#3f2a1c`, as the report writes runs that share a label),
 * or an id prefix. An unknown name, or one that stands for several runs, is a usage error that
 * lists what the store holds.
 */
export function namedRun(store: Store, suites: readonly Suite[], name: string): RunRecord {
  const runs = suites.flatMap((suite) => store.listRuns({ suite: suite.name }));
  const found = candidates(runs, name);
  if (found.length === 1) return found[0]!;
  const listed = (list: readonly RunRecord[]) =>
    list.map((run) => `    ${runName(run)}  (${run.suite}, ${run.createdAt.slice(0, 10)})`).join('\n');
  if (found.length > 1)
    throw new MedbenchError({
      code: 'USAGE',
      message: `"${name}" names ${found.length} runs; name one as label#id.`,
      hint: `Runs it names:\n${listed(found)}`,
    });
  if (runs.length === 0)
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No run named "${name}": the store ${store.path} holds no runs.`,
      hint: suites[0]?.firstRun,
    });
  const labels = [...new Set(runs.map((run) => run.label))];
  throw new MedbenchError({
    code: 'DATA_NOT_FOUND',
    message: `No run named "${name}" in ${store.path}.${didYouMean(name.split('#')[0]!.trim(), labels)}`,
    hint: `Name a run by its label, label#id or an id prefix. The store holds:\n${listed(runs)}`,
  });
}
