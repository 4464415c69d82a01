import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MedbenchError } from '../core/errors.js';
import type { Suite } from '../core/suite.js';
import type { HumanGrade } from '../store/human-grades.js';
import type { Store } from '../store/store.js';
import { answerGrade, newGradeToken } from './grade-route.js';
import { ReviewData, reviewPayload } from './review-data.js';
import { GRADE_ROUTE, GRADE_TOKEN_META } from './shared/review-types.js';
import { filtersOf } from './shared/sample-list.js';
import { ViewData } from './view-data.js';

/**
 * The viewer's script and styles, read once from the package, never per request: the page
 * bundled from TypeScript by `npm run build` (dist/viewer/app.js) and the stylesheet.
 */
export function viewerAssets(): { script: string; styles: string } {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const bundle = join(root, 'dist', 'viewer', 'app.js');
  if (!existsSync(bundle))
    throw new MedbenchError({
      code: 'FILE_ERROR',
      message: `The viewer's page script ${bundle} is missing.`,
      hint: 'Run `npm run build` in the medbench folder (it bundles src/view/page into dist/viewer/app.js).',
    });
  return {
    script: readFileSync(bundle, 'utf8'),
    styles: readFileSync(join(root, 'assets', 'viewer', 'app.css'), 'utf8'),
  };
}

export function pageShell(options: { mode: 'server' | 'static'; title: string; token?: string }): string {
  // The per-start token grades are sent with (hexadecimal: nothing to escape); a static site has none.
  const token = options.token ? `<meta name="${GRADE_TOKEN_META}" content="${options.token}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${token}
<title>${options.title}</title><link rel="stylesheet" href="app.css"></head>
<body data-mode="${options.mode}"><header><a href="#/" class="brand">medbench</a><nav id="suites"></nav></header>
<main id="app" tabindex="-1"><p>Loading…</p></main><script src="app.js"></script></body></html>
`;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The API routes: each names the view-data call and its parameters; nothing else is served. */
export function apiPayload(data: ViewData, route: string, query: URLSearchParams): unknown {
  const parameter = (name: string) => query.get(name) ?? '';
  switch (route) {
    case 'overview':
      return data.overview();
    case 'leaderboard':
      return data.leaderboard(parameter('suite'));
    case 'ranks':
      return data.ranks(parameter('suite'), parameter('variant'));
    case 'run':
      return data.runSummary(parameter('id'));
    case 'samples':
      return data.sampleList(parameter('run'), parameter('group'), filtersOf(query), {
        offset: Math.max(0, Number(parameter('offset')) || 0),
        limit: Math.min(500, Math.max(1, Number(query.get('limit') ?? 100) || 100)),
      });
    case 'sample':
      return data.sample(parameter('run'), parameter('id'), filtersOf(query));
    case 'compare':
      return data.compare(parameter('a'), parameter('b'), parameter('group'));
    default:
      return undefined;
  }
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Whether a request's Host header names this server: the bound address or a loopback name,
 * with the bound port. Anything else (a DNS name resolving to 127.0.0.1, as a DNS-rebinding page
 * uses) is refused, so no other site can read the store through the user's browser. Bound to
 * every interface (0.0.0.0, ::), IP literals are accepted too: rebinding needs a name.
 */
export function hostAllowed(host: string | undefined, bound: { address: string; port: number }): boolean {
  if (!host) return false;
  const match = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d+))?$/i.exec(host.trim().toLowerCase());
  if (!match) return false;
  const [, name, port] = match;
  if (Number(port ?? 80) !== bound.port) return false;
  const boundName = bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  if (name === boundName || LOOPBACK_NAMES.includes(name!)) return true;
  const everywhere = bound.address === '0.0.0.0' || bound.address === '::';
  return everywhere && (isIP(name!) !== 0 || isIP(name!.replace(/^\[|\]$/g, '')) !== 0);
}

/** An API route's answer: its payload, 404 for none, 500 with the error's code, message and hint. */
function apiAnswer(payload: () => unknown): { status: number; body: unknown } {
  try {
    const body = payload();
    return body === undefined ? { status: 404, body: { error: 'not found' } } : { status: 200, body };
  } catch (error) {
    // A damaged store, say: its code, what is wrong and how to fix it, as the CLI prints them.
    const known = MedbenchError.is(error) ? error : undefined;
    const body = known
      ? { error: `[${known.code}] ${known.message}`, ...(known.hint ? { hint: known.hint } : {}) }
      : { error: (error as Error).message };
    return { status: 500, body };
  }
}

/** Leaderboards read every result of a suite: computed while the user reads the URL. */
function warmLeaderboards(data: ViewData, suites: readonly Suite[]): void {
  for (const suite of suites) {
    try {
      data.leaderboard(suite.name);
    } catch {
      // A failure here shows up, with its message, when the page asks for the leaderboard.
    }
  }
}

/**
 * `medbench view`: an HTTP server over the store, read-only but for grades posted to
 * /api/grade by its own page when it has `writeGrade` (grade-route.ts, docs/review.md). Requests
 * map to fixed routes; no request path ever reaches the filesystem, and every page renders data
 * as text nodes.
 */
export async function startViewServer(options: {
  store: Store;
  /** The suites whose runs the pages show (`SUITES`). */
  suites: readonly Suite[];
  host: string;
  port: number;
  /** The review pages' data (docs/review.md); absent: the shipped rubrics, counts only. */
  review?: ReviewData;
  /** Stores a grade (`--reviewer`: a writable connection used for nothing else); absent: no grading. */
  writeGrade?: (grade: Omit<HumanGrade, 'id'>) => HumanGrade;
}): Promise<{
  url: string;
  server: Server;
  close(): Promise<void>;
}> {
  const data = new ViewData(options.store, options.suites);
  const assets = viewerAssets();
  const review = options.review ?? new ReviewData(options.store, options.suites);
  const token = newGradeToken();
  const shell = pageShell({ mode: 'server', title: 'medbench viewer', token });
  const server = createServer((request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...SECURITY_HEADERS });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (!hostAllowed(request.headers.host, server.address() as AddressInfo))
      return send(
        403,
        'text/plain',
        'Forbidden: this viewer answers only requests addressed to it by its own host name.',
      );
    if (request.method === 'POST' && request.url === GRADE_ROUTE)
      return void answerGrade(request, { token, review, write: options.writeGrade }, (answer) => {
        if (answer.close) response.setHeader('connection', 'close');
        send(answer.status, 'application/json', JSON.stringify(answer.body));
      });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return send(405, 'text/plain', 'Method not allowed');
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://viewer.invalid');
    } catch {
      return send(400, 'text/plain', 'Bad request');
    }
    if (url.pathname === '/' || url.pathname === '/index.html') return send(200, 'text/html', shell);
    if (url.pathname === '/app.js') return send(200, 'text/javascript', assets.script);
    if (url.pathname === '/app.css') return send(200, 'text/css', assets.styles);
    const api = /^\/api\/([a-z]+)$/.exec(url.pathname);
    if (api) {
      const answer = apiAnswer(
        () => apiPayload(data, api[1]!, url.searchParams) ?? reviewPayload(review, api[1]!, url.searchParams),
      );
      return send(answer.status, 'application/json', JSON.stringify(answer.body));
    }
    return send(404, 'text/plain', 'Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  setImmediate(() => warmLeaderboards(data, options.suites));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
