import { compareGroups } from './compare-groups.js';
import { highlightsOf } from './highlights.js';
import { unpackRows } from './packed-rows.js';
import { neighboursOf, sampleListOf } from './sample-list.js';
import type {
  Comparison,
  PromptSearch,
  RunFile,
  SampleFilters,
  SampleList,
  SamplePayload,
  SampleRow,
} from './view-types.js';

/** A run's static file with its rows unpacked. */
export type OpenedRunFile = Omit<RunFile, 'rows'> & { rows: SampleRow[] };

export function openRunFile(file: RunFile): OpenedRunFile {
  return { ...file, rows: unpackRows<SampleRow>(file.rows) };
}

export const groupRows = (file: OpenedRunFile, group: string) =>
  file.rows.filter((row) => row.group === group);

/**
 * The static site's payloads, computed from run files by the server's own rules: the same
 * payloads `ViewData` answers (a test holds them equal on the ten published runs).
 */
export function sampleListFrom(
  file: OpenedRunFile,
  group: string,
  filters: SampleFilters,
  page: { offset: number; limit: number },
  prompts?: PromptSearch,
): SampleList | undefined {
  const rows = groupRows(file, group);
  const summary = file.summary.groups.find((entry) => entry.group === group);
  if (rows.length === 0 || !summary) return undefined;
  const { ids: _ids, ...list } = sampleListOf(rows, filters, page, {
    declared: file.summary.sampleFilters,
    prompts,
  });
  return { run: file.summary.run, group, title: summary.title, primary: summary.primary, ...list };
}

export function sampleFrom(
  file: OpenedRunFile,
  id: string,
  filters: SampleFilters,
  prompts?: PromptSearch,
): SamplePayload | undefined {
  const row = file.rows.find((entry) => entry.id === id);
  const summary = file.summary.groups.find((entry) => entry.group === row?.group);
  if (!row || !summary) return undefined;
  const { ids, within } = sampleListOf(
    groupRows(file, row.group),
    filters,
    { offset: 0, limit: 0 },
    { declared: file.summary.sampleFilters, prompts },
  );
  return {
    ...row,
    run: file.summary.run,
    title: summary.title,
    metricNames: summary.metricNames,
    neighbours: neighboursOf(ids, id),
    within,
    highlights: highlightsOf(row),
    prompt: null,
    promptStatus:
      row.promptHash === null ? 'none' : file.prompts.includes(row.promptHash) ? 'apart' : 'left-out',
  };
}

export function comparisonFrom(
  left: OpenedRunFile,
  right: OpenedRunFile,
  group: string,
): Comparison | undefined {
  const side = (file: OpenedRunFile) => ({
    run: file.summary.run,
    rows: groupRows(file, group),
    figures: file.summary.groups.find((entry) => entry.group === group)?.figures ?? [],
  });
  const names = left.summary.groups.find((entry) => entry.group === group);
  return names ? compareGroups(group, names, side(left), side(right)) : undefined;
}
