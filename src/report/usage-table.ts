import type { RunWithResults, StoredResult } from '../core/run-record.js';
import type { ReportTable } from '../core/suite.js';
import { escapeHtml } from './escape-html.js';
import { renderReportTable } from './text-table.js';
import { withSection } from './with-section.js';

/** What one run's task took from its model: answers, tokens and what was paid. */
export interface TaskUsage {
  runId: string;
  label: string;
  task: string;
  samples: number;
  /** Answers that came from the model in this run (a request was paid for). */
  sent: number;
  /** Answers taken from the response cache (paid by an earlier run). */
  cached: number;
  /** Tokens of every answer, cached ones included: what the task takes of the model. */
  inputTokens: number | null;
  /** Of the input tokens, those the provider read from its prompt cache (null: none reported). */
  cachedInputTokens: number | null;
  /** Of the input tokens, those the provider wrote to its prompt cache (null: none reported). */
  cacheWriteTokens: number | null;
  outputTokens: number | null;
  /** Of the output tokens, those spent reasoning (where the provider reported them). */
  reasoningTokens: number | null;
  /**
   * What this run paid: fresh answers at the model's prices (cached and cache-written input at
   * their prices, a batch answer at the batch multiplier); null without prices.
   */
  cost: number | null;
  /**
   * Of the cost, what the explicit prompt caches (Gemini's) the run made for the task's samples
   * cost: their making and their storage, billed apart from any answer. Absent without any.
   */
  explicitCacheCost?: number;
  /** The same sent requests at the list input and output prices: no prompt cache, no batch discount. */
  listCost: number | null;
  /**
   * True when the provider reported cached (or cache-written) tokens and the model's prices had no
   * cached-input (or cache-write) price, none in the config and none documented for the model:
   * they were priced at the input price.
   */
  cachedAtInputPrice: boolean;
}

function sumOrNull(values: ReadonlyArray<number | null | undefined>): number | null {
  let sum: number | null = null;
  for (const value of values) if (value !== null && value !== undefined) sum = (sum ?? 0) + value;
  return sum;
}

/** The run's prices as stored with it, where it had any. */
function storedPrices(model: unknown): Record<string, unknown> | undefined {
  const prices = (model as { prices?: unknown } | null)?.prices;
  return prices && typeof prices === 'object' ? (prices as Record<string, unknown>) : undefined;
}

/** One task's figures, from its results and the prices stored with its run. */
function taskUsage(
  run: RunWithResults['run'],
  task: string,
  ofTask: StoredResult[],
  explicitCacheCost: number | undefined,
): TaskUsage {
  const answers = sumOrNull(ofTask.map((result) => result.cost));
  const cachedInputTokens = sumOrNull(ofTask.map((result) => result.cachedInputTokens));
  const cacheWriteTokens = sumOrNull(ofTask.map((result) => result.cacheWriteTokens));
  const prices = storedPrices(run.model);
  return {
    runId: run.id,
    label: run.label,
    task,
    samples: ofTask.length,
    sent: ofTask.filter((result) => !result.cacheHit && (result.attempts ?? 0) > 0).length,
    cached: ofTask.filter((result) => result.cacheHit).length,
    inputTokens: sumOrNull(ofTask.map((result) => result.inputTokens)),
    cachedInputTokens,
    cacheWriteTokens,
    outputTokens: sumOrNull(ofTask.map((result) => result.outputTokens)),
    reasoningTokens: sumOrNull(ofTask.map((result) => result.reasoningTokens)),
    cost: explicitCacheCost ? (answers ?? 0) + explicitCacheCost : answers,
    ...(explicitCacheCost ? { explicitCacheCost } : {}),
    // Results stored before list costs were kept paid list price: their cost is it.
    listCost: sumOrNull(ofTask.map((result) => result.listCost ?? result.cost)),
    cachedAtInputPrice:
      prices !== undefined &&
      (((cachedInputTokens ?? 0) > 0 && prices.cachedInputPerMillion === undefined) ||
        ((cacheWriteTokens ?? 0) > 0 && prices.cacheWritePerMillion === undefined)),
  };
}

/**
 * Tokens and cost per run and task, from the stored results and what the run's explicit prompt
 * caches cost by task (`cacheCosts`, from the store). Runs with no token or cost figure at all
 * (imported outputs, retrievers) are left out.
 */
export function usageByTask(
  runs: readonly RunWithResults[],
  cacheCosts: (runId: string) => ReadonlyMap<string, number> = () => new Map(),
): TaskUsage[] {
  const rows: TaskUsage[] = [];
  for (const { run, results } of runs) {
    const tasks = [...new Set(results.map((result) => result.task))].sort();
    const caches = cacheCosts(run.id);
    for (const task of tasks) {
      const row = taskUsage(
        run,
        task,
        results.filter((result) => result.task === task),
        caches.get(task),
      );
      if (row.inputTokens !== null || row.outputTokens !== null || row.cost !== null) rows.push(row);
    }
  }
  return rows;
}

/** A column of the table: its header, its cell, and the sentence of the note that says what it is. */
interface Column {
  header: string;
  cell: (row: TaskUsage) => string;
  note?: string;
}

const count = (value: number | null) => (value === null ? '—' : value.toLocaleString('en-US'));
const money = (value: number | null) => (value === null ? '—' : value.toFixed(4));

const COLUMNS = {
  model: { header: 'Model', cell: (row) => row.label },
  run: { header: 'Run', cell: (row) => row.runId.slice(0, 8) },
  task: { header: 'Task', cell: (row) => row.task },
  samples: { header: 'Samples', cell: (row) => String(row.samples) },
  sent: {
    header: 'Sent',
    cell: (row) => String(row.sent),
    note: 'Sent: answers requested from the model in this run.',
  },
  cached: {
    header: 'Cached',
    cell: (row) => String(row.cached),
    note: 'Cached: answers taken from medbench’s response cache (paid by an earlier run).',
  },
  input: {
    header: 'Input tokens',
    cell: (row) => count(row.inputTokens),
    note: 'Tokens count every answer, cached ones included (the provider’s own counts where it gave them); input tokens count every prompt token.',
  },
  cachedTokens: {
    header: 'Cached tokens',
    cell: (row) => count(row.cachedInputTokens),
    note: 'Cached tokens: of the input tokens, those the provider read from its prompt cache (— where it reported none).',
  },
  cacheWrite: {
    header: 'Cache-write tokens',
    cell: (row) => count(row.cacheWriteTokens),
    note: 'Cache-write tokens: of the input tokens, those the provider wrote to its prompt cache, billed at its cache-write price.',
  },
  output: { header: 'Output tokens', cell: (row) => count(row.outputTokens) },
  reasoning: {
    header: 'Reasoning tokens',
    cell: (row) => count(row.reasoningTokens),
    note: 'Reasoning tokens are the part of the output tokens a reasoning model spent thinking, where its provider reports them; they are billed as output.',
  },
  cost: {
    header: 'Cost',
    cell: (row) => money(row.cost),
    note: 'Cost: what this run paid — its sent requests at the config’s prices, cached input tokens at the cached price and cache-written ones at the cache-write price (the provider’s documented share of the input price unless the config gives them), batch answers times the batch multiplier; answers from medbench’s cache free; the explicit prompt caches (Gemini’s) made for the task, their making and storage, billed apart from the answers; — without prices.',
  },
  list: {
    header: 'List price',
    cell: (row) => money(row.listCost),
    note: 'List price: the same sent requests with every input token at the input price and every output token at the output price — no prompt cache, no batch discount.',
  },
} satisfies Record<string, Column>;

/** The table's columns: cache-write and reasoning tokens only where some run reported them. */
function columnsOf(rows: readonly TaskUsage[]): Column[] {
  const any = (field: 'cacheWriteTokens' | 'reasoningTokens') => rows.some((row) => row[field] !== null);
  return [
    COLUMNS.model,
    COLUMNS.run,
    COLUMNS.task,
    COLUMNS.samples,
    COLUMNS.sent,
    COLUMNS.cached,
    COLUMNS.input,
    COLUMNS.cachedTokens,
    ...(any('cacheWriteTokens') ? [COLUMNS.cacheWrite] : []),
    COLUMNS.output,
    ...(any('reasoningTokens') ? [COLUMNS.reasoning] : []),
    COLUMNS.cost,
    COLUMNS.list,
  ];
}

/** What each column is; and which models had their cached tokens priced at the input price. */
function note(rows: readonly TaskUsage[], columns: readonly Column[]): string {
  const sentences = columns.flatMap((column) => (column.note ? [column.note] : []));
  const undiscounted = [...new Set(rows.filter((row) => row.cachedAtInputPrice).map((row) => row.label))];
  if (undiscounted.length > 0)
    sentences.push(
      `No cached-input (or cache-write) price is known for ${undiscounted.join(', ')} (none in the config, none documented for the model): those tokens are priced at the input price; give "prices": { "cachedInputPerMillion": …, "cacheWritePerMillion": … } in the config.`,
    );
  return sentences.join(' ');
}

/** The usage table as the text shows it (`report --csv`), or undefined when no run has figures. */
export function usageReportTable(rows: readonly TaskUsage[]): ReportTable | undefined {
  if (rows.length === 0) return undefined;
  const columns = columnsOf(rows);
  return {
    name: 'usage',
    title: 'Tokens and cost per model and task',
    header: columns.map((column) => column.header),
    rows: rows.map((row) => columns.map((column) => column.cell(row))),
  };
}

/** The usage table as text, or '' when no run has figures. */
export function renderUsageText(rows: readonly TaskUsage[]): string {
  const table = usageReportTable(rows);
  return table ? `${renderReportTable(table)}\n${note(rows, columnsOf(rows))}` : '';
}

/** The usage table as an HTML section, or '' when no run has figures. */
export function renderUsageHtml(rows: readonly TaskUsage[]): string {
  if (rows.length === 0) return '';
  const columns = columnsOf(rows);
  const head = columns.map((column) => `<th scope="col">${column.header}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${columns.map((column) => `<td>${escapeHtml(column.cell(row))}</td>`).join('')}</tr>`)
    .join('');
  return `<section id="usage"><h2>Tokens and cost per model and task</h2><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table><p>${escapeHtml(note(rows, columns))}</p></section>`;
}

/** Adds the usage section to a report page, before its end. */
export function withUsageSection(html: string, rows: readonly TaskUsage[]): string {
  return withSection(html, renderUsageHtml(rows));
}
