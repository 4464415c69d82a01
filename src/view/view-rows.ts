import type { RunRecord, ScoreRow, StoredResult } from '../core/run-record.js';
import type { ListRow, RunDescription, SampleRow } from './shared/view-types.js';

/** Every http(s) URL in a value replaced by "<endpoint>" (strings, arrays and objects alike). */
export function withoutUrls(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, '<endpoint>');
  if (Array.isArray(value)) return value.map(withoutUrls);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutUrls(item)]));
  return value;
}

/** A run as the pages show it; for a static export, without endpoints or any URL. */
export function describeRun(run: RunRecord, hideEndpoints: boolean): RunDescription {
  const { endpoints: _endpoints, ...model } = run.model;
  return {
    id: run.id,
    suite: run.suite,
    label: run.label,
    imported: run.source === 'imported',
    datasetId: run.datasetId,
    createdAt: run.createdAt,
    model: hideEndpoints ? (withoutUrls(model) as Record<string, unknown>) : run.model,
    source: run.source,
    scoringMode: run.scoringMode,
    parameters: hideEndpoints ? (withoutUrls(run.parameters) as Record<string, unknown>) : run.parameters,
  };
}

/** A score row as the lists show it, with its page group, whether the suite counts it and its unit (`Suite.unitOf`). */
export function listRowOf(row: ScoreRow, group: string, counted: boolean, unit?: string): ListRow {
  return {
    // null rather than absent: a static site's packed rows give every row every column.
    unit: unit ?? null,
    id: row.sampleId,
    task: row.task,
    group,
    params: row.params,
    status: row.status,
    scores: row.scores,
    counted,
    promptChars: row.promptChars,
    promptTokens: row.promptTokens,
    cost: row.cost,
  };
}

/** A stored result in full for the sample page (figures and explanation from its suite). */
export function sampleRowOf(
  result: StoredResult,
  listed: ListRow,
  extra: Pick<SampleRow, 'figures' | 'explanation'>,
  hideEndpoints: boolean,
): SampleRow {
  return {
    ...listed,
    gold: result.gold,
    rawOutput: result.rawOutput,
    parsed: result.parsed,
    inputTokens: result.inputTokens,
    outputTokens: result.outputTokens,
    latencyMs: result.latencyMs,
    error: hideEndpoints && result.error ? (withoutUrls(result.error) as string) : result.error,
    promptHash: result.promptHash,
    explanation: extra.explanation,
    redaction: result.redaction ?? null,
    // A sample's own figures only where they say more than its scores (KG/Table: P/R/F1 from tp/fp/fn).
    figures: extra.figures.some((figure) => figure.unit === 'count') ? extra.figures : [],
  };
}
