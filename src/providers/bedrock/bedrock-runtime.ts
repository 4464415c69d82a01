import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { MedbenchError } from '../../core/errors.js';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import { endpointIdentityWithHeaders, withQuery } from '../endpoint-identity.js';

/** Where and as whom a Bedrock adapter sends: region, another runtime URL, an AWS profile. */
export interface BedrockConnection {
  /** The AWS region; without it, AWS_REGION or AWS_DEFAULT_REGION. */
  region?: string;
  /** Another Bedrock runtime URL (a VPC endpoint; a local server in tests). */
  endpointURL?: string;
  /** A named profile of ~/.aws/config and ~/.aws/credentials; else the default chain. */
  profile?: string;
  /**
   * Headers and query parameters for every request (a gateway's), signed with the rest: fixed
   * headers and the query are part of the endpoint's identity, secret headers are not.
   */
  headers?: Record<string, string>;
  secretHeaders?: Record<string, string>;
  query?: Record<string, string>;
}

export function regionOf(connection: BedrockConnection): string | undefined {
  return connection.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
}

/** The runtime's URL for the region, as the endpoint's identity. */
export function runtimeIdentity(connection: BedrockConnection): string {
  const url =
    connection.endpointURL ??
    `https://bedrock-runtime.${regionOf(connection) ?? 'unset-region'}.amazonaws.com`;
  return endpointIdentityWithHeaders(withQuery(url, connection.query), connection.headers);
}

/**
 * The SDK client: SigV4 and the AWS credential chain, the SDK's own retries off (the runner
 * retries and records each attempt), HTTP/1.1 with keep-alive (no request here needs HTTP/2).
 */
export async function bedrockRuntime(
  connection: BedrockConnection,
  modelId: string,
): Promise<BedrockRuntimeClient> {
  const common = await sdkClientConfig(connection, `Bedrock model "${modelId}"`);
  const { BedrockRuntimeClient } = await loadOptionalPart(
    OPTIONAL_PARTS.bedrock,
    () => import('@aws-sdk/client-bedrock-runtime'),
  );
  const client = new BedrockRuntimeClient({
    ...common,
    ...(connection.endpointURL ? { endpoint: connection.endpointURL } : {}),
  });
  addEndpointParameters(client, connection);
  return client;
}

/**
 * What every AWS SDK client of medbench is made with: the region (a usage error naming `what`
 * without one), one attempt a call, HTTP/1.1 with keep-alive, the named profile if any.
 */
export async function sdkClientConfig(connection: BedrockConnection, what: string) {
  const region = regionOf(connection);
  if (!region)
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `${what} has no region.`,
      hint: 'Give the endpoint "region" in medbench.config.json, or set AWS_REGION.',
    });
  const { NodeHttpHandler } = await loadOptionalPart(
    OPTIONAL_PARTS.bedrock,
    () => import('@smithy/node-http-handler'),
  );
  return {
    region,
    maxAttempts: 1,
    requestHandler: new NodeHttpHandler({ connectionTimeout: 3000 }),
    ...(connection.profile ? { profile: connection.profile } : {}),
  };
}

/** What the SDK's build step hands on: the HTTP request about to be signed. */
interface BuiltRequest {
  headers?: Record<string, string>;
  query?: Record<string, string | string[] | null>;
}

/**
 * The endpoint's headers and query parameters on every request: a middleware of the build step,
 * which runs before the request is signed, so SigV4 covers them as it covers the rest.
 */
function addEndpointParameters(client: BedrockRuntimeClient, connection: BedrockConnection): void {
  const headers = { ...connection.headers, ...connection.secretHeaders };
  const query = connection.query ?? {};
  if (Object.keys(headers).length === 0 && Object.keys(query).length === 0) return;
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as BuiltRequest;
      request.headers = { ...request.headers, ...headers };
      request.query = { ...request.query, ...query };
      return next(args);
    },
    { step: 'build', name: 'medbenchEndpointParameters' },
  );
}
