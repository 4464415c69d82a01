import { escapeHtml } from './escape-html.js';

/** One line a report adds about a run: its label, its id's start, and what is to be known of it. */
export interface RunNote {
  runId: string;
  label: string;
  text: string;
}

/** The section's heading, its element id on a page, and a sentence under the lines. */
export interface RunNotesSection {
  title: string;
  id: string;
  note?: string;
}

// The first 8 characters of the id: the `#xxxxxx` a table adds to a shared label is their start.
const lineOf = (row: RunNote) => `${row.label} (run ${row.runId.slice(0, 8)}): ${row.text}`;

/** The notes as text under their heading, or '' when there are none. */
export function renderRunNotesText(section: RunNotesSection, rows: readonly RunNote[]): string {
  if (rows.length === 0) return '';
  const lines = [
    section.title,
    ...rows.map((row) => `  ${lineOf(row)}`),
    ...(section.note ? [section.note] : []),
  ];
  return lines.join('\n');
}

/** The notes as an HTML section, or '' when there are none. */
export function renderRunNotesHtml(section: RunNotesSection, rows: readonly RunNote[]): string {
  if (rows.length === 0) return '';
  const items = rows.map((row) => `<li>${escapeHtml(lineOf(row))}</li>`).join('');
  const note = section.note ? `<p>${escapeHtml(section.note)}</p>` : '';
  return `<section id="${section.id}"><h2>${escapeHtml(section.title)}</h2><ul>${items}</ul>${note}</section>`;
}
