import { el } from './dom.js';

const MAX_MARKS = 2000;

/** The ranges of every occurrence of the terms, in order, without overlaps. */
function rangesOf(text: string, terms: readonly string[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const term of terms) {
    if (!term) continue;
    let start = text.indexOf(term);
    while (start !== -1 && ranges.length < MAX_MARKS) {
      ranges.push([start, start + term.length]);
      start = text.indexOf(term, start + term.length);
    }
  }
  return ranges.sort((left, right) => left[0] - right[0]);
}

/**
 * The prompt, folded: loaded and built only when unfolded, as text nodes with <mark> around the
 * highlights (needle, gold answers) or the search text; Enter steps from match to match.
 */
export function promptView(options: {
  /** What the text is: "Prompt", or "Query" for a retrieval query. */
  title: string;
  chars: number | null;
  highlights: readonly string[];
  load: () => Promise<string | null>;
}): HTMLElement {
  const container = el('pre', { id: 'prompt', tabindex: 0 });
  const counter = el('span', { class: 'muted', 'aria-live': 'polite' });
  const search = el('input', {
    type: 'search',
    id: 'prompt-search',
    placeholder: 'Search the prompt',
    'aria-label': 'Search the prompt',
  });
  let prompt: string | null = null;
  let marks: HTMLElement[] = [];
  let current = -1;
  let painted = '';
  function paint(terms: readonly string[]): void {
    if (prompt === null) return;
    const fragment = document.createDocumentFragment();
    let cursor = 0;
    marks = [];
    for (const [start, end] of rangesOf(prompt, terms)) {
      if (start < cursor) continue;
      fragment.append(prompt.slice(cursor, start));
      const mark = el('mark', { text: prompt.slice(start, end) });
      marks.push(mark);
      fragment.append(mark);
      cursor = end;
    }
    fragment.append(prompt.slice(cursor));
    container.replaceChildren(fragment);
    current = -1;
    painted = terms.join('\u0000');
    counter.textContent = `${marks.length} highlighted`;
  }
  function step(): void {
    const terms = search.value ? [search.value] : options.highlights;
    if (terms.join('\u0000') !== painted) paint(terms);
    if (marks.length === 0) return;
    marks[current]?.classList.remove('current');
    current = (current + 1) % marks.length;
    marks[current]!.classList.add('current');
    marks[current]!.scrollIntoView({ block: 'center' });
    counter.textContent = `${current + 1} of ${marks.length}`;
  }
  search.addEventListener('change', () => paint(search.value ? [search.value] : options.highlights));
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    step();
  });
  const size = options.chars === null ? '' : ` (${options.chars.toLocaleString('en')} characters)`;
  const details = el('details', { id: 'prompt-details' }, el('summary', { text: `${options.title}${size}` }));
  details.addEventListener('toggle', async () => {
    if (!details.open || prompt !== null) return;
    container.textContent = 'Loading…';
    try {
      prompt = (await options.load()) ?? '';
      paint(options.highlights);
    } catch (error) {
      container.textContent = (error as Error).message;
    }
  });
  details.append(
    el(
      'div',
      { class: 'controls' },
      search,
      el('button', { type: 'button', onclick: step, text: 'Next match' }),
      counter,
    ),
    container,
  );
  return details;
}
