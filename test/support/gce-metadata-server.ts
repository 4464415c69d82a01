import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** The token the metadata server gives out for the attached service account. */
export const METADATA_ACCESS_TOKEN = 'ya29.medbench-test-token';

/**
 * For a test file or a describe: a Google Cloud VM's metadata server on 127.0.0.1, which
 * Application Default Credentials ask for the attached service account's token when no key file is
 * set and no gcloud login exists (GCE_METADATA_HOST points the library here; HOME is an empty
 * folder). The environment is restored afterwards. Returns what the server was asked.
 */
export function onGoogleCloudVm(
  project = 'clinical-eval',
): Array<{ path: string; flavor: string | undefined }> {
  const asked: Array<{ path: string; flavor: string | undefined }> = [];
  let metadata: Server;
  let saved: NodeJS.ProcessEnv;
  const emptyHome = mkdtempSync(join(tmpdir(), 'medbench-adc-'));
  beforeAll(async () => {
    saved = { ...process.env };
    metadata = createServer((request, response) => {
      const path = request.url ?? '';
      asked.push({ path, flavor: request.headers['metadata-flavor'] as string | undefined });
      const headers = { 'metadata-flavor': 'Google', 'content-type': 'application/json' };
      if (request.headers['metadata-flavor'] !== 'Google') {
        response.writeHead(403, headers);
        response.end('{}');
      } else if (path.startsWith('/computeMetadata/v1/instance/service-accounts/default/token')) {
        response.writeHead(200, headers);
        response.end(
          JSON.stringify({ access_token: METADATA_ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' }),
        );
      } else if (path.startsWith('/computeMetadata/v1/project/project-id')) {
        response.writeHead(200, { ...headers, 'content-type': 'text/plain' });
        response.end(project);
      } else {
        response.writeHead(200, headers);
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => metadata.listen(0, '127.0.0.1', resolve));
    process.env.GCE_METADATA_HOST = `127.0.0.1:${(metadata.address() as AddressInfo).port}`;
    delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    process.env.HOME = emptyHome;
    process.env.CLOUDSDK_CONFIG = emptyHome;
  });
  afterAll(async () => {
    process.env = saved;
    await new Promise<void>((resolve) => metadata.close(() => resolve()));
    rmSync(emptyHome, { recursive: true, force: true });
  });
  return asked;
}
