import type { RunWithResults } from '../core/run-record.js';
import { escapeHtml } from './escape-html.js';
import { renderTextTable } from './text-table.js';
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
  outputTokens: number | null;
  /** Of the output tokens, those spent reasoning (where the provider reported them). */
  reasoningTokens: number | null;
  /** What this run paid (fresh answers at the config's prices); null without prices. */
  cost: number | null;
}

function sumOrNull(values: ReadonlyArray<number | null>): number | null {
  let sum: number | null = null;
  for (const value of values) if (value !== null) sum = (sum ?? 0) + value;
  return sum;
}

/**
 * Tokens and cost per run and task, from the stored results. Runs with no token or cost figure
 * at all (imported outputs, retrievers) are left out.
 */
export function usageByTask(runs: readonly RunWithResults[]): TaskUsage[] {
  const rows: TaskUsage[] = [];
  for (const { run, results } of runs) {
    const tasks = [...new Set(results.map((result) => result.task))].sort();
    for (const task of tasks) {
      const ofTask = results.filter((result) => result.task === task);
      const row: TaskUsage = {
        runId: run.id,
        label: run.label,
        task,
        samples: ofTask.length,
        sent: ofTask.filter((result) => !result.cacheHit && (result.attempts ?? 0) > 0).length,
        cached: ofTask.filter((result) => result.cacheHit).length,
        inputTokens: sumOrNull(ofTask.map((result) => result.inputTokens)),
        outputTokens: sumOrNull(ofTask.map((result) => result.outputTokens)),
        reasoningTokens: sumOrNull(ofTask.map((result) => result.reasoningTokens ?? null)),
        cost: sumOrNull(ofTask.map((result) => result.cost)),
      };
      if (row.inputTokens !== null || row.outputTokens !== null || row.cost !== null) rows.push(row);
    }
  }
  return rows;
}

const HEADER = ['Model', 'Run', 'Task', 'Samples', 'Sent', 'Cached', 'Input tokens', 'Output tokens', 'Cost'];
const NOTE =
  'Tokens count every answer, cached ones included (the provider’s own counts where it gave them); cost is what this run paid: fresh answers at the config’s prices, cached ones free, — without prices.';
const REASONING_NOTE =
  ' Reasoning tokens are the part of the output tokens a reasoning model spent thinking, where its provider reports them; they are billed as output.';

/** A reasoning column only when some run reported reasoning tokens. */
function withReasoning(rows: readonly TaskUsage[]): boolean {
  return rows.some((row) => row.reasoningTokens !== null);
}

function header(rows: readonly TaskUsage[]): string[] {
  return withReasoning(rows) ? [...HEADER.slice(0, 8), 'Reasoning tokens', 'Cost'] : HEADER;
}

function note(rows: readonly TaskUsage[]): string {
  return withReasoning(rows) ? NOTE + REASONING_NOTE : NOTE;
}

function cells(row: TaskUsage, reasoning: boolean): string[] {
  const count = (value: number | null) => (value === null ? '—' : value.toLocaleString('en-US'));
  return [
    row.label,
    row.runId.slice(0, 8),
    row.task,
    String(row.samples),
    String(row.sent),
    String(row.cached),
    count(row.inputTokens),
    count(row.outputTokens),
    ...(reasoning ? [count(row.reasoningTokens)] : []),
    row.cost === null ? '—' : row.cost.toFixed(4),
  ];
}

/** The usage table as text, or '' when no run has figures. */
export function renderUsageText(rows: readonly TaskUsage[]): string {
  if (rows.length === 0) return '';
  const reasoning = withReasoning(rows);
  return `Tokens and cost per model and task\n${renderTextTable(
    header(rows),
    rows.map((row) => cells(row, reasoning)),
  )}\n${note(rows)}`;
}

/** The usage table as an HTML section, or '' when no run has figures. */
export function renderUsageHtml(rows: readonly TaskUsage[]): string {
  if (rows.length === 0) return '';
  const reasoning = withReasoning(rows);
  const head = header(rows)
    .map((cell) => `<th scope="col">${cell}</th>`)
    .join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${cells(row, reasoning)
          .map((cell) => `<td>${escapeHtml(cell)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<section id="usage"><h2>Tokens and cost per model and task</h2><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table><p>${escapeHtml(note(rows))}</p></section>`;
}

/** Adds the usage section to a report page, before its end. */
export function withUsageSection(html: string, rows: readonly TaskUsage[]): string {
  return withSection(html, renderUsageHtml(rows));
}
