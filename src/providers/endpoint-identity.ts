import { createHash } from 'node:crypto';

/** Query parameters whose values are credentials (Azure's `api-key`, signed URLs, tokens). */
const SECRET_PARAMETER = /key|token|secret|sig|password|auth|credential/i;

/**
 * What names an endpoint in run ids, cache keys, stored runs and messages: the base URL
 * without credentials. User info is dropped, credential-like query values are replaced by
 * `redacted` (their names stay: `api-version` changes the answer, a key does not), a default
 * port and trailing slashes are dropped, so one server is one identity however it is written.
 */
export function endpointIdentity(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    // Not a URL: nothing to strip; callers validate URLs before requests are made.
    return baseURL.replace(/\/+$/, '');
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETER.test(name)) url.searchParams.set(name, 'redacted');
  }
  url.searchParams.sort();
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Route URLs already made: a run asks for the same one with every request. */
const routeUrls = new Map<string, string>();

/** The URL of an API route under a base URL, keeping the base URL's query (e.g. `api-version`). */
export function routeUrl(baseURL: string, route: string): string {
  const key = `${baseURL}\u0000${route}`;
  let made = routeUrls.get(key);
  if (made === undefined) {
    made = makeRouteUrl(baseURL, route);
    if (routeUrls.size >= 1000) routeUrls.clear();
    routeUrls.set(key, made);
  }
  return made;
}

function makeRouteUrl(baseURL: string, route: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return `${baseURL.replace(/\/+$/, '')}${route}`; // the request reports the bad URL
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${route}`;
  return url.toString();
}

/** The base URL with `query` added (values replace those already in the URL). */
export function withQuery(baseURL: string, query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return baseURL;
  try {
    const url = new URL(baseURL);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  } catch {
    return baseURL; // the request reports the bad URL
  }
}

/**
 * The endpoint's identity: its URL without credentials and, when it sends fixed headers, a
 * digest of them (a gateway may route by header: another header is another server).
 */
export function endpointIdentityWithHeaders(
  baseURL: string,
  headers: Record<string, string> | undefined,
): string {
  const url = endpointIdentity(baseURL);
  const entries = Object.entries(headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value])
    .sort(([left], [right]) => (left! < right! ? -1 : 1));
  if (entries.length === 0) return url;
  return `${url}#headers=${createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 12)}`;
}
