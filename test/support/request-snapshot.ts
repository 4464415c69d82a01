import type { RecordedRequest } from './providers/wire.js';

/**
 * Headers that change from run to run or with a library's version, not with what medbench sends:
 * left out of a request snapshot.
 */
const VOLATILE_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'date',
  'x-amz-date',
  'user-agent',
  'x-amz-user-agent',
  'x-goog-api-client',
  'amz-sdk-invocation-id',
]);

/** A SigV4 Authorization header without its day and signature (both change with the clock). */
function stableAuthorization(value: string): string {
  return value
    .replace(/(Credential=[^/]+)\/\d{8}\//, '$1/<date>/')
    .replace(/Signature=[0-9a-f]{64}/, 'Signature=<signature>');
}

/**
 * What a request carried, as a reviewable snapshot: method, path, query, headers (the volatile
 * ones left out, a SigV4 signature masked) and the JSON body.
 */
export function requestSnapshot(request: RecordedRequest): string {
  const url = new URL(request.path, 'http://test-server');
  const headers = Object.entries(request.headers)
    .filter(([name]) => !VOLATILE_HEADERS.has(name))
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([name, value]) => [name, name === 'authorization' ? stableAuthorization(String(value)) : value]);
  const snapshot = {
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(headers),
    body: request.body,
  };
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}
