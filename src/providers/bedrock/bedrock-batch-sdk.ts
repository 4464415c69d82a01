import type { BedrockClient } from '@aws-sdk/client-bedrock';
import type { S3Client } from '@aws-sdk/client-s3';
import { loadOptionalPart, OPTIONAL_PARTS } from '../../core/optional-part.js';
import type { BedrockBatchSettings } from './bedrock-batch-settings.js';
import { type BedrockConnection, sdkClientConfig } from './bedrock-runtime.js';

/** The SDK clients batch inference takes: Bedrock's control plane and S3, in the model's region. */
export interface BatchSdk {
  control: BedrockClient;
  s3: S3Client;
  /** The modules, for their commands. */
  bedrock: typeof import('@aws-sdk/client-bedrock');
  storage: typeof import('@aws-sdk/client-s3');
}

/**
 * Both clients, loaded on first use (optional parts): SigV4 and the AWS credential chain as the
 * runtime's, the SDK's own retries off (the lifecycle retries and records each step). S3 sends
 * checksums only where an operation requires them, so that an S3-compatible store takes it.
 */
export async function batchSdk(
  connection: BedrockConnection,
  settings: BedrockBatchSettings,
): Promise<BatchSdk> {
  const common = await sdkClientConfig(connection, 'Bedrock batch inference');
  const bedrock = await loadOptionalPart(
    OPTIONAL_PARTS.bedrockBatch,
    () => import('@aws-sdk/client-bedrock'),
  );
  const storage = await loadOptionalPart(OPTIONAL_PARTS.bedrockBatch, () => import('@aws-sdk/client-s3'));
  return {
    bedrock,
    storage,
    control: new bedrock.BedrockClient({
      ...common,
      ...(settings.controlURL ? { endpoint: settings.controlURL } : {}),
    }),
    s3: new storage.S3Client({
      ...common,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(settings.s3Endpoint ? { endpoint: settings.s3Endpoint, forcePathStyle: true } : {}),
    }),
  };
}
