import { filtersOf } from '../shared/sample-list.js';
import type { SamplePayload } from '../shared/view-types.js';
import type { DataSource } from './data-source.js';
import { dataTable } from './data-table.js';
import { el, link, render } from './dom.js';
import { navigation } from './navigation.js';
import { promptView } from './prompt-view.js';
import { figuresTable } from './run-page.js';

const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Previous and next under the list's filters (those the suite applies: `sample.within`). */
function steps(sample: SamplePayload): HTMLElement {
  const filters = sample.within;
  const step = (id: string | null, text: string) =>
    id ? link(text, 'sample', { run: sample.run.id, id, ...filters }) : el('span', { class: 'muted', text });
  const named = Object.entries(filters);
  return el(
    'nav',
    { class: 'controls', id: 'sample-steps', 'aria-label': 'Samples in this list' },
    step(sample.neighbours.previous, '← previous'),
    step(sample.neighbours.next, 'next →'),
    named.length > 0
      ? el('span', {
          class: 'muted',
          text: `within ${named.map(([name, value]) => `${name} ${value}`).join(', ')}`,
        })
      : el('span', { class: 'muted', text: 'in the whole group' }),
  );
}

function facts(sample: SamplePayload): HTMLElement {
  const fact = (term: string, value: string, attributes: Record<string, string> = {}) => [
    el('dt', { text: term }),
    el('dd', { text: value, ...attributes }),
  ];
  return el(
    'dl',
    { id: 'sample-facts' },
    fact('Status', sample.status, { class: `status-${sample.status}`, id: 'sample-status' }),
    fact(
      'Counted',
      sample.counted ? 'yes' : "no — beyond the model's context window; the report leaves it out",
    ),
    fact(
      'Parameters',
      Object.entries(sample.params)
        .filter(([, value]) => typeof value !== 'object')
        .map(([key, value]) => `${key}=${value}`)
        .join(' '),
    ),
    fact(
      'Tokens',
      `prompt ${sample.promptTokens ?? '—'} · input ${sample.inputTokens ?? '—'} · output ${sample.outputTokens ?? '—'}`,
    ),
    fact('Cost', sample.cost === null ? '—' : `$${sample.cost.toFixed(6)}`),
    sample.error ? fact('Error', sample.error) : [],
  );
}

/** How the scorer saw it: normalised prediction and gold per metric, and the answer that matched. */
function explanation(sample: SamplePayload): HTMLElement[] {
  const explained = sample.explanation;
  if (!explained?.normalised) return [];
  const name = (metric: string) => sample.metricNames[metric] ?? metric;
  return [
    el('h2', { text: 'How it was scored' }),
    el(
      'table',
      { id: 'explanation' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['Metric', 'Prediction (normalised)', 'Gold (normalised)', 'Matched'].map((text) =>
            el('th', { scope: 'col', text }),
          ),
        ),
      ),
      el(
        'tbody',
        {},
        explained.normalised.map((entry) =>
          el(
            'tr',
            {},
            el('th', { scope: 'row', text: name(entry.metric) }),
            el('td', { class: 'text', text: entry.prediction }),
            el('td', { class: 'text', text: entry.gold.join(' | ') }),
            el('td', { class: 'text', text: explained.matched?.[entry.metric] ?? 'none' }),
          ),
        ),
      ),
    ),
  ];
}

/** A retrieval query's top texts: rank, score, text, and whether it is a target. */
function retrieved(sample: SamplePayload): Array<HTMLElement | HTMLElement[]> {
  const items = sample.explanation?.retrieved;
  if (!items) return [];
  return [
    // The query as the retriever embedded it (the stored prompt), when the payload carries it.
    sample.prompt ? [el('h2', { text: 'Query' }), el('pre', { id: 'query', text: sample.prompt })] : [],
    el('h2', { text: `Retrieved texts (top ${items.length})` }),
    dataTable({
      id: 'retrieved',
      name: `${sample.run.label}-${sample.id}-retrieved`,
      rows: items,
      rowAttributes: (item): Record<string, string> => (item.relevant ? { class: 'relevant' } : {}),
      columns: [
        { label: 'Rank', value: (item) => item.rank },
        {
          label: 'Score',
          value: (item) => item.score,
          cell: (item) => (item.score === null ? '—' : item.score.toFixed(4)),
        },
        { label: 'Target', value: (item) => (item.relevant ? 'yes' : '') },
        { label: 'Text', value: (item) => item.text, attributes: () => ({ class: 'text' }) },
      ],
    }),
  ];
}

/** What --redact kept in place of a text: its length and SHA-256 hash. */
function redactedText(sha: string | null, chars: number | null, what: string): string {
  if (sha === null) return `(no ${what})`;
  return `(redacted by --redact: ${chars === null ? '' : `${chars} characters, `}SHA-256 ${sha})`;
}

/** The raw output, parsed answer and gold, or what --redact kept of them. */
function outputSections(sample: SamplePayload) {
  const redacted = sample.redaction;
  return [
    el('h2', { text: 'Raw output' }),
    el('pre', {
      id: 'raw-output',
      text: redacted
        ? redactedText(redacted.outputSha256, redacted.outputChars, 'model output')
        : (sample.rawOutput ?? '(no model output)'),
    }),
    el('h2', { text: 'Parsed answer' }),
    el('pre', { id: 'parsed', text: redacted ? '(redacted by --redact)' : pretty(sample.parsed) }),
    el('h2', { text: 'Gold' }),
    el('pre', {
      id: 'gold',
      text: redacted ? redactedText(redacted.goldSha256, null, 'gold') : pretty(sample.gold),
    }),
  ];
}

/** The prompt: loaded on demand, or why it is not shown. */
function promptSection(sample: SamplePayload, source: DataSource) {
  if (sample.redaction)
    return el('p', {
      class: 'muted',
      id: 'prompt-redacted',
      text: redactedText(sample.redaction.promptSha256, sample.redaction.promptChars, 'prompt'),
    });
  if (sample.promptStatus === 'none') return el('p', { class: 'muted', text: 'No prompt stored.' });
  if (sample.promptStatus === 'left-out')
    return el('p', {
      class: 'muted',
      text: "This prompt is beyond the static site's prompt budget; `medbench view` on the store shows it.",
    });
  return promptView({
    title: sample.explanation?.retrieved ? 'Query' : 'Prompt',
    chars: sample.promptChars,
    highlights: sample.highlights,
    load: () => source.prompt(sample),
  });
}

/** One sample: its output, parsed answer, gold, how it was scored, its metrics and its prompt. */
export async function samplePage(source: DataSource, query: URLSearchParams): Promise<void> {
  await navigation(source);
  const runId = query.get('run') ?? '';
  // The list's filters travel with the sample, so prev/next walk the same filtered list.
  const sample = await source.sample(runId, query.get('id') ?? '', filtersOf(query));
  // The question closes every prompt of these suites; shown from the parameters when they hold it.
  const question = typeof sample.params.question === 'string' ? sample.params.question : null;
  const prompt = promptSection(sample, source);
  render(
    el(
      'h1',
      {},
      link(sample.run.label, 'run', { id: runId }),
      ' — ',
      link(sample.title, 'samples', { run: runId, group: sample.group, ...sample.within }),
      ` — ${sample.id}`,
    ),
    steps(sample),
    facts(sample),
    question ? [el('h2', { text: 'Question' }), el('pre', { id: 'question', text: question })] : null,
    outputSections(sample),
    explanation(sample),
    retrieved(sample),
    figuresTable("This sample's figures", sample.figures, `${sample.run.label}-${sample.id}`),
    el('h2', { text: 'Metrics' }),
    el(
      'table',
      { id: 'sample-scores' },
      el(
        'tbody',
        {},
        Object.entries(sample.scores).map(([metric, value]) =>
          el(
            'tr',
            {},
            el('th', { scope: 'row', text: sample.metricNames[metric] ?? metric }),
            el('td', { text: value }),
          ),
        ),
      ),
    ),
    prompt,
  );
}
