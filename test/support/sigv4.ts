import { createHash, createHmac } from 'node:crypto';
import type { RecordedRequest } from './providers/wire.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Checks a request's AWS Signature Version 4 from scratch, as AWS documents it (canonical
 * request, string to sign, HMAC key chain), with the secret the client was given: not with the
 * SDK that signed it. Returns the credential scope it was signed for, or throws why not.
 */
export function verifySigV4(
  request: Pick<RecordedRequest, 'path' | 'headers' | 'rawBody'> & Partial<RecordedRequest>,
  secretAccessKey: string,
): { accessKeyId: string; scope: string } {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match) throw new Error(`not a SigV4 Authorization header: ${authorization}`);
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  const amzDate = String(request.headers['x-amz-date']);
  if (!amzDate.startsWith(date!)) throw new Error(`x-amz-date ${amzDate} is not of the scope's day ${date}`);
  const [rawPath, rawQuery = ''] = request.path.split('?');
  // Every path segment encoded again (all services but S3).
  const canonicalPath = rawPath!
    .split('/')
    .map((segment) => uriEncode(uriEncode(decodeURIComponent(segment))))
    .join('/');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) =>
      pair
        .split('=')
        .map((part) => uriEncode(decodeURIComponent(part ?? '')))
        .join('='),
    )
    .sort()
    .join('&');
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? sha256(request.rawBody));
  const canonicalRequest = [
    request.method ?? 'POST',
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region!), service!), 'aws4_request');
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  if (expected !== signature) throw new Error(`signature mismatch:\n${canonicalRequest}`);
  if (names.includes('host') === false) throw new Error('host is not signed');
  return { accessKeyId: accessKeyId!, scope };
}
