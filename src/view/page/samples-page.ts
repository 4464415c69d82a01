import { filtersOf } from '../shared/sample-list.js';
import type { ListRow, SampleFilters, SampleList } from '../shared/view-types.js';
import { type DataSource, PAGE_SIZE } from './data-source.js';
import { dataTable } from './data-table.js';
import { el, href, link, render } from './dom.js';
import { navigation } from './navigation.js';

const paramsText = (row: ListRow) =>
  Object.entries(row.params)
    .filter(([, value]) => typeof value !== 'object')
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');

/** A task group's samples: filters by status, the suite's params and text (ids, parameters, outputs), pages of 100. */
export async function samplesPage(source: DataSource, query: URLSearchParams): Promise<void> {
  await navigation(source);
  const runId = query.get('run') ?? '';
  const group = query.get('group') ?? '';
  const filters = filtersOf(query);
  const offset = Math.max(0, Number(query.get('offset')) || 0);
  const list = await source.samples(runId, group, filters, offset);
  const go = (changes: Record<string, string | number>) => {
    location.hash = href('samples', { run: runId, group, ...filters, offset: 0, ...changes });
  };
  const filterSelect = (name: string, label: string) =>
    el(
      'label',
      {},
      `${label} `,
      el(
        'select',
        { onchange: (event: Event) => go({ [name]: (event.target as HTMLSelectElement).value }) },
        el('option', { value: '', text: 'all' }),
        (list.options[name] ?? []).map((value) =>
          el('option', { value, text: value, selected: value === filters[name] }),
        ),
      ),
    );
  render(
    el('h1', {}, link(list.run.label, 'run', { id: runId }), ` — ${list.title}`),
    el(
      'div',
      { class: 'controls' },
      filterSelect('status', 'status'),
      // The suite's filters (`Suite.sampleFilters`), each where its param has values in this group.
      list.filters.map(({ param, label }) =>
        list.options[param]?.length ? filterSelect(param, label) : null,
      ),
      searchControls(list, filters, go),
    ),
    samplesTable(list, filters),
    el(
      'nav',
      { class: 'controls', 'aria-label': 'Pages' },
      offset > 0
        ? link('← previous', 'samples', {
            run: runId,
            group,
            ...filters,
            offset: Math.max(0, offset - PAGE_SIZE),
          })
        : null,
      offset + PAGE_SIZE < list.matched
        ? link('next →', 'samples', { run: runId, group, ...filters, offset: offset + PAGE_SIZE })
        : null,
    ),
  );
}

/** The page's rows: id (to the sample, filters kept), parameters, status, main metric, prompt size. */
function samplesTable(list: SampleList, filters: SampleFilters): HTMLElement {
  const runId = list.run.id;
  const group = list.group;
  const primary = list.primary;
  return dataTable({
    id: 'samples',
    name: `${list.run.label}-${group}-samples`,
    rows: list.rows,
    columns: [
      {
        label: 'Sample',
        value: (row) => row.id,
        cell: (row) => link(row.id, 'sample', { run: runId, id: row.id, ...filters }),
      },
      { label: 'Parameters', value: paramsText, attributes: () => ({ class: 'text' }) },
      {
        label: 'Status',
        value: (row) => row.status,
        attributes: (row) => ({ class: `status-${row.status}` }),
      },
      {
        label: primary ? `${primary} (main metric)` : 'score',
        value: (row) => (primary && typeof row.scores[primary] === 'number' ? row.scores[primary]! : null),
        cell: (row) =>
          !row.counted
            ? '— (not counted)'
            : primary && row.scores[primary] !== undefined
              ? String(row.scores[primary])
              : '—',
      },
      { label: 'Prompt chars', value: (row) => row.promptChars },
    ],
  });
}

/** The search box, its "and prompts" switch and the count of matching samples. */
function searchControls(
  list: SampleList,
  filters: SampleFilters,
  go: (changes: Record<string, string | number>) => void,
): HTMLElement[] {
  return [
    el(
      'label',
      {},
      'search ids, parameters and outputs ',
      el('input', {
        type: 'search',
        id: 'sample-search',
        value: filters.q ?? '',
        onchange: (event: Event) => go({ q: (event.target as HTMLInputElement).value }),
      }),
    ),
    el(
      'label',
      {},
      el('input', {
        type: 'checkbox',
        id: 'search-prompts',
        checked: filters.prompts === '1',
        onchange: (event: Event) => go({ prompts: (event.target as HTMLInputElement).checked ? '1' : '' }),
      }),
      ' and prompts',
    ),
    el('span', {
      class: 'muted',
      id: 'sample-count',
      text: `${list.matched} of ${list.total} samples${
        list.promptSearch && list.promptSearch.searched < list.promptSearch.total
          ? ` (${list.promptSearch.searched} of ${list.promptSearch.total} prompts searched)`
          : ''
      }`,
    }),
  ];
}
