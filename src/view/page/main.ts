import { comparePage } from './compare-page.js';
import { type DataSource, serverSource, staticSource } from './data-source.js';
import { el, render } from './dom.js';
import { leaderboardPage } from './leaderboard-page.js';
import { reviewPage } from './review-page.js';
import { runPage } from './run-page.js';
import { samplePage } from './sample-page.js';
import { samplesPage } from './samples-page.js';

/**
 * The viewer page: hash routes over payloads from the server's API or the static site's files.
 * Bundled from TypeScript (`npm run build` → dist/viewer/app.js); the rules it shares with the
 * server (filters, comparisons, file keys) live in `src/view/shared/`.
 */
type Page = (source: DataSource, query: URLSearchParams) => Promise<void>;

const ROUTES: Record<string, Page> = {
  '': leaderboardPage,
  leaderboard: leaderboardPage,
  run: runPage,
  samples: samplesPage,
  sample: samplePage,
  compare: comparePage,
  review: reviewPage,
};

const source = document.body.dataset.mode === 'static' ? staticSource() : serverSource();

function route(): void {
  const [path = '', search = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const page = ROUTES[path];
  const done = page
    ? page(source, new URLSearchParams(search))
    : Promise.reject(new Error(`No page "${path}" in this viewer.`));
  done.catch((error: Error) =>
    render(el('h1', { text: 'Nothing to show' }), el('p', { text: error.message })),
  );
}

window.addEventListener('hashchange', route);
route();
