import type { ListRow, PromptSearch, SampleFilter, SampleFilters } from './view-types.js';

/** One collator for every comparison: `localeCompare` with options builds one per call (slow). */
const collator = new Intl.Collator('en', { numeric: true });

/** Ids in natural order: "niah-en-4k" before "niah-en-16k", "s2" before "s10". */
export const naturalOrder = (left: string, right: string): number => collator.compare(left, right);

/** Query keys of the list's and the sample's routes that are not filters. */
const ROUTE_KEYS = ['run', 'group', 'id', 'offset', 'limit'];

/** Names a suite's sample filter cannot take: the routes' own keys and the generic filters. */
export const RESERVED_FILTER_NAMES: readonly string[] = [...ROUTE_KEYS, 'status', 'q', 'prompts'];

/**
 * The list's filters from a route's or a request's query, one rule for the server and the page:
 * every non-empty key but the route's own (a suite's filters by their param name).
 */
export function filtersOf(query: URLSearchParams): SampleFilters {
  return Object.fromEntries([...query].filter(([name, value]) => value !== '' && !ROUTE_KEYS.includes(name)));
}

/** The filters a list applies: status, q, prompts and the suite's declared params; other keys are dropped. */
export function appliedFilters(filters: SampleFilters, declared: readonly SampleFilter[]): SampleFilters {
  const names = ['status', 'q', 'prompts', ...declared.map(({ param }) => param)];
  return Object.fromEntries(Object.entries(filters).filter(([name, value]) => value && names.includes(name)));
}

/**
 * The sample list's filters, one rule for the server and the static page: the suite's declared
 * params and the status exactly; the search text in the id, a parameter value or the raw output,
 * in any case (CJK as it is). A filter the suite does not declare is ignored.
 */
export function matchesFilters(
  row: ListRow,
  filters: SampleFilters,
  context: { declared: readonly SampleFilter[]; prompts?: PromptSearch | undefined },
): boolean {
  const q = filters.q?.toLocaleLowerCase();
  const { declared, prompts } = context;
  return (
    declared.every(({ param }) => !filters[param] || String(row.params[param]) === filters[param]) &&
    (!filters.status || row.status === filters.status) &&
    (!q ||
      row.id.toLocaleLowerCase().includes(q) ||
      JSON.stringify(row.params).toLocaleLowerCase().includes(q) ||
      (row.rawOutput ?? '').toLocaleLowerCase().includes(q) ||
      prompts?.matches.has(row.id) === true)
  );
}

/** The distinct values of one field over a group's rows, in natural order (the filter menus). */
function optionsOf(rows: readonly ListRow[], pick: (row: ListRow) => unknown): string[] {
  return [...new Set(rows.map(pick).filter((value) => value !== undefined && value !== null))]
    .map(String)
    .sort(naturalOrder);
}

/**
 * One group's list: its rows in natural id order, those matching the filters, and the page of
 * `limit` from `offset`. The rows leave without their raw outputs (the list does not show them).
 */
export function sampleListOf(
  rows: readonly ListRow[],
  filters: SampleFilters,
  page: { offset: number; limit: number },
  context: { declared: readonly SampleFilter[]; prompts?: PromptSearch | undefined },
) {
  const { declared, prompts } = context;
  const sorted = [...rows].sort((left, right) => naturalOrder(left.id, right.id));
  const matching = sorted.filter((row) => matchesFilters(row, filters, context));
  return {
    total: sorted.length,
    matched: matching.length,
    offset: page.offset,
    /** The suite's filters, in menu order. */
    filters: declared.map(({ param, label }) => ({ param, label })),
    /** Each filter's values over the group (status, then the suite's params by name). */
    options: {
      status: optionsOf(sorted, (row) => row.status),
      ...Object.fromEntries(
        declared.map(({ param }) => [param, optionsOf(sorted, (row) => row.params[param])]),
      ),
    },
    rows: matching.slice(page.offset, page.offset + page.limit).map(listFields),
    ...(prompts ? { promptSearch: { searched: prompts.searched, total: prompts.total } } : {}),
    /** Every matching id, in order: what prev/next on a sample page step through. */
    ids: matching.map((row) => row.id),
    /** The filters it applied (a key the suite does not declare left out). */
    within: appliedFilters(filters, declared),
  };
}

/** A row as the list sends it: its list fields only (no output, gold or prompt). */
function listFields(row: ListRow): ListRow {
  return {
    id: row.id,
    task: row.task,
    group: row.group,
    params: row.params,
    status: row.status,
    scores: row.scores,
    counted: row.counted,
    unit: row.unit,
    promptChars: row.promptChars,
    promptTokens: row.promptTokens,
    cost: row.cost,
  };
}

/** The ids before and after one sample in a list (null at either end, or when it is not listed). */
export function neighboursOf(ids: readonly string[], sampleId: string) {
  const index = ids.indexOf(sampleId);
  if (index < 0) return { previous: null, next: null };
  return { previous: ids[index - 1] ?? null, next: ids[index + 1] ?? null };
}

/**
 * The samples whose prompt contains the search text (any case), reading each distinct prompt
 * once, until `budget` characters have been read (the rest are not searched, and counted so).
 */
export function searchPrompts(
  rows: ReadonlyArray<{ id: string; promptHash: string | null }>,
  q: string,
  read: (hash: string) => string | null | undefined,
  budget = 200_000_000,
): PromptSearch {
  const needle = q.toLocaleLowerCase();
  const hashes = [...new Set(rows.flatMap((row) => (row.promptHash ? [row.promptHash] : [])))];
  const found = new Set<string>();
  let searched = 0;
  let characters = 0;
  for (const hash of hashes) {
    if (characters >= budget) break;
    const text = read(hash);
    if (text === null || text === undefined) continue;
    searched++;
    characters += text.length;
    if (text.toLocaleLowerCase().includes(needle)) found.add(hash);
  }
  const matches = new Set(
    rows.flatMap((row) => (row.promptHash && found.has(row.promptHash) ? [row.id] : [])),
  );
  return { matches, searched, total: hashes.length };
}
