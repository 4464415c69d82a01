import type { Overview } from '../shared/view-types.js';
import type { DataSource } from './data-source.js';
import { link } from './dom.js';

/** The header's links to each suite's leaderboard, with its run count, and to the review page; the overview for the page. */
export async function navigation(source: DataSource): Promise<Overview> {
  const overview = await source.overview();
  document.getElementById('suites')?.replaceChildren(
    ...overview.suites.map((entry) =>
      link(`${entry.title} (${entry.runs.length})`, 'leaderboard', { suite: entry.suite }),
    ),
    // Human review of free-text answers (docs/review.md); the static site says how to start it.
    link('Review', 'review'),
  );
  return overview;
}

/** Runs of the overview by id (label, dataset, date and source). */
export function runsById(overview: Overview) {
  return new Map(overview.suites.flatMap((entry) => entry.runs.map((run) => [run.id, run] as const)));
}
