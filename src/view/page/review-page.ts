import type {
  ReviewCounts,
  ReviewItemPayload,
  ReviewMinePayload,
  ReviewOverview,
  ReviewQueuePayload,
} from '../shared/review-types.js';
import type { DataSource } from './data-source.js';
import { dataTable } from './data-table.js';
import { el, fraction, link, render } from './dom.js';
import { navigation } from './navigation.js';
import { reviewApi } from './review-api.js';
import { gradeForm, reviewedItem } from './review-form.js';

type Target = { suite: string; task: string; title: string };

const START = 'medbench view --reviewer NAME';
/** The last save, said once on the page that follows it. */
let lastSaved = '';

const when = (iso: string) => iso.replace('T', ' ');

function countsLine(counts: ReviewCounts): HTMLElement {
  return el('p', {
    id: 'review-counts',
    text: `Items ${counts.items} · graded ${counts.graded} · mine ${counts.mine} · double-rated ${counts.doubleShare}, of them done ${counts.doubleDone}`,
  });
}

/** The reviewable tasks and their queues' counts; each a link to its queue when the viewer grades. */
function tasksTable(overview: ReviewOverview): HTMLElement {
  type Row = ReviewOverview['tasks'][number];
  const count = (label: string, pick: (counts: ReviewCounts) => number) => ({
    label,
    value: (row: Row) => pick(row.counts),
  });
  return dataTable<Row>({
    id: 'review-tasks',
    caption: 'Reviewable tasks',
    name: 'review-tasks',
    rows: overview.tasks,
    columns: [
      {
        label: 'Task',
        rowHeader: true,
        value: (row) => row.title,
        cell: (row) =>
          overview.reviewer === null
            ? row.title
            : link(row.title, 'review', { suite: row.suite, task: row.task }),
      },
      { label: 'Rubric version', value: (row) => row.rubricVersion },
      count('Items', (counts) => counts.items),
      count('Graded', (counts) => counts.graded),
      count('Mine', (counts) => counts.mine),
      count('Double-rated', (counts) => counts.doubleShare),
      count('Double-rated done', (counts) => counts.doubleDone),
    ],
  });
}

function overviewPage(overview: ReviewOverview): void {
  const share = `${Math.round(overview.doubleShare * 100)}%`;
  render(
    el('h1', { text: 'Review' }),
    overview.reviewer === null
      ? el(
          'p',
          { id: 'review-start' },
          'Grading is off: this viewer was started without a reviewer. To grade, start ',
          el('code', { text: START }),
          ' (docs/review.md).',
        )
      : el('p', {
          text: `Grading as ${overview.reviewer}. Pick a task: its answers come blinded, models mixed, in an order of your own; ${share} of them are meant for two reviewers.`,
        }),
    overview.tasks.length > 0
      ? tasksTable(overview)
      : el('p', { text: 'No suite here has answers people grade.' }),
  );
}

/** The reviewer's graded items of the task, each opening its page to edit the grade. */
function mineTable(mine: ReviewMinePayload, target: Target): HTMLElement {
  type Row = ReviewMinePayload['grades'][number];
  return dataTable<Row>({
    id: 'review-mine',
    caption: 'My grades',
    name: `my-grades-${target.task}`,
    rows: mine.grades,
    columns: [
      {
        label: 'Item',
        rowHeader: true,
        value: (row) => row.token,
        cell: (row) => link(row.token, 'review', { suite: target.suite, task: target.task, item: row.token }),
      },
      { label: 'Graded', value: (row) => when(row.gradedAt) },
      { label: 'Score (%)', value: (row) => Number(fraction(row.score)) },
      { label: 'Grades (edits)', value: (row) => row.grades },
    ],
  });
}

async function queuePage(source: DataSource, target: Target): Promise<void> {
  const [queue, mine] = await Promise.all([
    reviewApi<ReviewQueuePayload>('queue', { suite: target.suite, task: target.task }),
    reviewApi<ReviewMinePayload>('mine', { suite: target.suite, task: target.task }),
  ]);
  const saved = lastSaved;
  lastSaved = '';
  render(
    el('h1', { text: `Review: ${queue.title}` }),
    el('p', {}, link('All tasks', 'review')),
    saved ? el('p', { id: 'review-saved', role: 'status', text: saved }) : null,
    countsLine(queue.counts),
    queue.item
      ? [
          el('h2', { id: 'review-token', text: `Item ${queue.item.token}` }),
          reviewedItem(queue.item),
          gradeForm(queue.item, target, (response) => {
            lastSaved = `Saved item ${response.token}: score ${fraction(response.score)}%.`;
            void queuePage(source, target);
          }),
        ]
      : el('p', { id: 'review-done', text: 'Nothing left in your queue for this task.' }),
    mineTable(mine, target),
  );
}

/** One of the reviewer's items: their grades of it, oldest first, and the form to edit the latest. */
async function itemPage(source: DataSource, target: Target, token: string): Promise<void> {
  const item = await reviewApi<ReviewItemPayload>('item', { suite: target.suite, task: target.task, token });
  const saved = lastSaved;
  lastSaved = '';
  render(
    el('h1', { id: 'review-token', text: `Item ${item.token}` }),
    el(
      'p',
      {},
      link(`Back to the ${target.title} queue`, 'review', { suite: target.suite, task: target.task }),
    ),
    saved ? el('p', { id: 'review-saved', role: 'status', text: saved }) : null,
    el('h2', { text: 'My grades of this item' }),
    item.history.length > 0
      ? el(
          'ol',
          { id: 'review-history' },
          item.history.map((grade) =>
            el('li', {
              text: `${when(grade.gradedAt)}: score ${fraction(grade.score)}%${grade.note ? ` — ${grade.note}` : ''}`,
            }),
          ),
        )
      : el('p', { text: 'You have not graded this item yet.' }),
    reviewedItem(item),
    gradeForm(item, target, (response) => {
      lastSaved = `Saved an edit of item ${response.token}: score ${fraction(response.score)}%.`;
      void itemPage(source, target, token);
    }),
  );
}

/**
 * `#/review`: the reviewable tasks with their queues' counts; with a task, the reviewer's next
 * blinded item and their grades; with an item, its history and an edit. The static site and a
 * viewer without --reviewer say how to start grading.
 */
export async function reviewPage(source: DataSource, query: URLSearchParams): Promise<void> {
  await navigation(source);
  if (source.isStatic)
    return render(
      el('h1', { text: 'Review' }),
      el(
        'p',
        { id: 'review-start' },
        'A static report takes no grades. Grading needs the local viewer: ',
        el('code', { text: START }),
        ' (docs/review.md).',
      ),
    );
  const overview = await reviewApi<ReviewOverview>('review', {});
  const entry = overview.tasks.find(
    (task) => task.suite === query.get('suite') && task.task === query.get('task'),
  );
  if (!entry || overview.reviewer === null) return overviewPage(overview);
  const target = { suite: entry.suite, task: entry.task, title: entry.title };
  const token = query.get('item');
  return token ? itemPage(source, target, token) : queuePage(source, target);
}
