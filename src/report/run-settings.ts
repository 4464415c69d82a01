import { GENERATION_SETTINGS } from '../core/chat-model.js';
import { describeEpochs, epochSettingsOf } from '../core/epochs.js';
import type { RunRecord } from '../core/run-record.js';
import { renderRunNotesHtml, renderRunNotesText } from './run-notes.js';
import { withSection } from './with-section.js';

/** The parameters that say how a run's model generated, in the order a report lists them. */
const SETTING_NAMES = ['temperature', 'maxOutputTokens', ...GENERATION_SETTINGS] as const;

/** How a run's model generated: the generation settings stored with the run, those set only. */
export interface RunSettings {
  runId: string;
  label: string;
  /** The settings; a run of `--epochs K` adds `epochs` (K) and `epochReducers` (each task's reducer). */
  settings: Record<string, unknown>;
  /** e.g. `temperature 0, maxOutputTokens 500, seed 42, extraBody {"top_k":20}` (`; 3 epochs, mean` with epochs). */
  text: string;
}

/** `name value` pairs, JSON for lists and objects (stop sequences, extraBody) so nothing is lost. */
function describeSettings(settings: Readonly<Record<string, unknown>>): string {
  return Object.entries(settings)
    .map(([name, value]) => `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** Where a run keeps its generation parameters: a CLUE run under `generation`, others at the top. */
function generationParameters(
  parameters: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const nested = parameters.generation;
  return typeof nested === 'object' && nested !== null && !Array.isArray(nested)
    ? (nested as Record<string, unknown>)
    : parameters;
}

/** The generation settings stored with a run, those set only, in the order a report lists them. */
export function generationSettingsOf(run: RunRecord): Record<string, unknown> {
  const stored = generationParameters(run.parameters);
  return Object.fromEntries(
    SETTING_NAMES.filter((name) => stored[name] !== undefined).map((name) => [name, stored[name]]),
  );
}

/** The generation settings of every run that has any (a retriever or an import has none), in their order. */
export function runSettings(runs: ReadonlyArray<{ run: RunRecord }>): RunSettings[] {
  return runs.flatMap(({ run }) => {
    const settings = generationSettingsOf(run);
    if (Object.keys(settings).length === 0) return [];
    const epochs = epochSettingsOf(run);
    if (!epochs) return [{ runId: run.id, label: run.label, settings, text: describeSettings(settings) }];
    return [
      {
        runId: run.id,
        label: run.label,
        settings: { ...settings, epochs: epochs.count, epochReducers: epochs.reducers },
        text: `${describeSettings(settings)}; ${describeEpochs(epochs)}`,
      },
    ];
  });
}

const SECTION = { title: 'Generation settings', id: 'generation-settings' };

/** The runs' generation settings as text, or '' when no run has any. */
export function renderSettingsText(rows: readonly RunSettings[]): string {
  return renderRunNotesText(SECTION, rows);
}

/** Adds the runs' generation settings to a report page, before its end. */
export function withSettingsSection(html: string, rows: readonly RunSettings[]): string {
  return withSection(html, renderRunNotesHtml(SECTION, rows));
}
