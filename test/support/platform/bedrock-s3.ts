import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { listenOnLoopback } from '../loopback-server.js';

/** The only credentials s3rver accepts (it checks SigV4 signatures made with them). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** The part of s3rver (an untyped CommonJS package) the platform uses. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections(): void };
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverServer;

/** An s3:// URI split into bucket and key (the key may be a prefix or empty). */
export interface S3Location {
  bucket: string;
  key: string;
}

/** `s3://bucket/key` as documented for Bedrock's S3 URIs, or undefined when it is not one. */
export function parseS3Uri(uri: string): S3Location | undefined {
  const match = /^s3:\/\/([a-z0-9][.\-a-z0-9]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(uri);
  return match ? { bucket: match[1]!, key: match[2] ?? '' } : undefined;
}

/** One JSONL input object: its key, its name in the output (relative to the input prefix), its text. */
export interface InputFile {
  key: string;
  name: string;
  text: string;
}

export interface BedrockS3 {
  /** What clients use: a proxy in front of the S3 server, so a download can be cut. */
  endpoint: string;
  /** The platform's own client, straight to the S3 server. */
  client: S3Client;
  /** The next GetObject through `endpoint` sends half its body, then closes the connection. */
  cutNextDownload: boolean;
  /** GetObject requests served through `endpoint`, by key. */
  downloads: string[];
  put(location: S3Location, text: string): Promise<void>;
  /** The object's text, or undefined when there is none. */
  get(location: S3Location): Promise<string | undefined>;
  /** The .jsonl input at `location`: the object itself, or every .jsonl object under the prefix. */
  readInput(location: S3Location): Promise<InputFile[]>;
  close(): Promise<void>;
}

/** Starts s3rver (a real S3 server) with `buckets`, or uses `endpoint`, behind a cutting proxy. */
export async function startBedrockS3(options: {
  buckets: string[];
  endpoint?: string;
  /** Called with each key downloaded through the proxy. */
  onDownload?: (key: string) => void;
}): Promise<BedrockS3> {
  let target = options.endpoint;
  let stopServer = async () => {};
  if (target === undefined) {
    const directory = mkdtempSync(join(tmpdir(), 'bedrock-s3-'));
    const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: options.buckets.map((name) => ({ name })),
    });
    const address = await server.run();
    target = `http://127.0.0.1:${address.port}`;
    stopServer = async () => {
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    };
  }
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: target,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  const state = { cutNextDownload: false, downloads: [] as string[] };
  const proxy = await startCuttingProxy(new URL(target), state, options.onDownload ?? (() => {}));
  return Object.assign(state, {
    endpoint: proxy.url,
    client,
    put: (location: S3Location, text: string) => putObject(client, location, text),
    get: (location: S3Location) => getObject(client, location),
    readInput: (location: S3Location) => readInput(client, location),
    close: async () => {
      await proxy.close();
      client.destroy();
      await stopServer();
    },
  });
}

async function putObject(client: S3Client, location: S3Location, text: string): Promise<void> {
  await client.send(new PutObjectCommand({ Bucket: location.bucket, Key: location.key, Body: text }));
}

async function getObject(client: S3Client, location: S3Location): Promise<string | undefined> {
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: location.key }));
    return await object.Body?.transformToString('utf8');
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

async function readInput(client: S3Client, location: S3Location): Promise<InputFile[]> {
  if (location.key.endsWith('.jsonl')) {
    const text = await getObject(client, location);
    return text === undefined ? [] : [{ key: location.key, name: location.key.split('/').at(-1)!, text }];
  }
  const prefix = location.key === '' || location.key.endsWith('/') ? location.key : `${location.key}/`;
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: location.bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const entry of page.Contents ?? []) if (entry.Key?.endsWith('.jsonl')) keys.push(entry.Key);
    token = page.NextContinuationToken;
  } while (token);
  const files: InputFile[] = [];
  for (const key of keys.sort()) {
    const text = await getObject(client, { bucket: location.bucket, key });
    if (text !== undefined) files.push({ key, name: key.slice(prefix.length), text });
  }
  return files;
}

/**
 * A byte-for-byte HTTP proxy (the Host header kept, so SigV4 signatures still hold) that counts
 * object downloads and, when told, sends the next one half, then closes the connection.
 */
async function startCuttingProxy(
  target: URL,
  state: { cutNextDownload: boolean; downloads: string[] },
  onDownload: (key: string) => void,
) {
  const server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    // Path style: /bucket/key…; a GET with a key and no sub-resource query is GetObject.
    const [pathname = '', query = ''] = path.split('?');
    const isDownload = incoming.method === 'GET' && /^\/[^/]+\/.+/.test(pathname) && !/list-type/.test(query);
    const cut = isDownload && state.cutNextDownload;
    if (isDownload) {
      const key = decodeURIComponent(pathname.replace(/^\/[^/]+\//, ''));
      state.downloads.push(key);
      onDownload(key);
    }
    if (cut) state.cutNextDownload = false;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!cut) return void answer.pipe(outgoing);
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          outgoing.write(body.subarray(0, Math.floor(body.length / 2)), () => incoming.socket.destroy());
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  return listenOnLoopback(server);
}
