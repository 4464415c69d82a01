import {
  type GradeResponse,
  NOTE_LIMIT,
  type ReviewItemPayload,
  type ReviewRubricView,
} from '../shared/review-types.js';
import { el } from './dom.js';
import { postGrade } from './review-api.js';

const signed = (points: number) =>
  `${points > 0 ? '+' : ''}${points} point${Math.abs(points) === 1 ? '' : 's'}`;

/** What the reviewer reads of an item: the task's input, the reference, the answer — as text, never HTML. */
export function reviewedItem(item: ReviewItemPayload): HTMLElement[] {
  return [
    el('h2', { text: 'Task input' }),
    el('pre', { id: 'review-input', tabindex: 0, text: item.input || '(none stored)' }),
    el('h2', { text: 'Reference answer' }),
    el('pre', { id: 'review-reference', tabindex: 0, text: item.reference }),
    el('h2', { text: 'Answer to grade' }),
    el('pre', { id: 'review-answer', tabindex: 0, text: item.answer }),
  ];
}

/** One criterion: its text and points, met or not met (neither chosen until the reviewer says). */
function criterionField(
  criterion: ReviewRubricView['criteria'][number],
  number: number,
  met: boolean | undefined,
) {
  const choice = (value: boolean, label: string) =>
    el(
      'label',
      {},
      el('input', {
        type: 'radio',
        name: `criterion-${criterion.id}`,
        value: value ? 'met' : 'not-met',
        checked: met === value,
      }),
      ` ${label}`,
    );
  return el(
    'fieldset',
    { class: 'criterion', 'data-criterion': criterion.id },
    el(
      'legend',
      {},
      `${number}. ${criterion.text}`,
      el('span', { class: 'muted', text: ` (${signed(criterion.points)})` }),
    ),
    choice(true, 'met'),
    ' ',
    choice(false, 'not met'),
  );
}

/**
 * The rubric as a form: its definition, a met / not-met choice per criterion (every one must be
 * answered), a note; saving posts the grade and hands the server's answer to `saved`. Starts
 * from the reviewer's latest grade of the item, if any (an edit).
 */
export function gradeForm(
  item: ReviewItemPayload,
  target: { suite: string; task: string },
  saved: (response: GradeResponse) => void,
): HTMLElement {
  const latest = item.history.at(-1);
  const status = el('p', { id: 'review-status', role: 'status', 'aria-live': 'polite' });
  const note = el('textarea', { id: 'review-note', maxlength: NOTE_LIMIT, rows: 3 });
  note.value = latest?.note ?? '';
  const form = el(
    'form',
    { id: 'grade-form', 'aria-label': 'Grade this answer' },
    el('h2', { text: 'Rubric' }),
    el('p', { id: 'review-definition', text: item.rubric.definition }),
    el('p', { class: 'muted', text: `Rubric version ${item.rubric.version}` }),
    item.rubric.criteria.map((criterion, index) =>
      criterionField(criterion, index + 1, latest?.verdicts[criterion.id]),
    ),
    el('label', { for: 'review-note', text: 'Note (optional)' }),
    note,
    el('p', {}, el('button', { type: 'submit', text: latest ? 'Save edit' : 'Save grade' })),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const verdicts: Record<string, boolean> = {};
    const missing: number[] = [];
    for (const [index, criterion] of item.rubric.criteria.entries()) {
      const checked = form.querySelector<HTMLInputElement>(`input[name="criterion-${criterion.id}"]:checked`);
      if (checked) verdicts[criterion.id] = checked.value === 'met';
      else missing.push(index + 1);
    }
    if (missing.length > 0) {
      status.textContent = `Answer every criterion first: ${missing.length === 1 ? 'criterion' : 'criteria'} ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no verdict.`;
      return;
    }
    status.textContent = 'Saving…';
    postGrade({ suite: target.suite, task: target.task, token: item.token, verdicts, note: note.value })
      .then(saved)
      .catch((error: Error) => {
        status.textContent = `Not saved: ${error.message}`;
      });
  });
  return form;
}
