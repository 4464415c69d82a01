import { flatFields } from '../shared/flat-fields.js';
import { el } from './dom.js';

/** Values longer than this fold to their first characters; the whole value is one click away. */
const FOLD_AT = 120;
const PREVIEW = 80;

/** A value as text, folded when long (a published release's list of missing ids). */
function valueView(text: string): Node | string {
  if (text.length <= FOLD_AT) return text;
  return el(
    'details',
    {},
    el('summary', { text: `${text.slice(0, PREVIEW)}… (${text.length} characters)` }),
    el('div', { class: 'folded', text }),
  );
}

/**
 * A record (a run's model description, its parameters) as a definition list of its fields:
 * dotted keys for nested values, long values folded, every key and value a text node.
 */
export function fieldList(id: string, record: Record<string, unknown>): HTMLElement {
  const fields = flatFields(record);
  if (fields.length === 0) return el('span', { id, class: 'muted', text: '(none)' });
  return el(
    'dl',
    { id, class: 'fields' },
    fields.map((field) => [el('dt', { text: field.key }), el('dd', {}, valueView(field.text))]),
  );
}
