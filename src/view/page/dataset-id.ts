import { el } from './dom.js';

/** An id over 16 characters (a content hash has 64) reads as its first 12. */
const shortened = (id: string) => (id.length > 16 ? `${id.slice(0, 12)}…` : id);

/**
 * A dataset id as a page shows it: shortened, the whole id in its title and copied by its button
 * (where the browser refuses the clipboard, the whole id is shown selected, ready to copy).
 */
export function datasetIdView(id: string): HTMLElement {
  const short = shortened(id);
  const code = el('code', { title: id, text: short });
  if (short === id) return el('span', { class: 'dataset-id' }, code);
  const button = el('button', {
    type: 'button',
    class: 'copy',
    text: 'Copy',
    title: 'Copy the whole dataset id',
    'aria-label': 'Copy the whole dataset id',
  });
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(id).then(
      () => {
        button.textContent = 'Copied';
      },
      () => {
        code.textContent = id;
        code.classList.add('whole');
        getSelection()?.selectAllChildren(code);
        button.textContent = 'Selected';
      },
    );
  });
  return el('span', { class: 'dataset-id' }, code, button);
}
