import { z } from 'zod';
import { httpUrl } from '../config-fields.js';
import type { BedrockBatchSettings } from './bedrock-batch-settings.js';

const s3Uri = z
  .string()
  .regex(
    /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/,
    'must be an S3 URI such as s3://my-bucket/medbench/',
  );

/** A Bedrock endpoint's config fields for `run --batch` (batch inference through S3). */
export const BEDROCK_BATCH_SETTINGS = {
  /** Where medbench writes each batch's input file: s3://bucket/prefix/. */
  batchS3Uri: s3Uri.optional(),
  /** Where Bedrock writes the output (default: output/ under batchS3Uri). */
  batchOutputS3Uri: s3Uri.optional(),
  /** The service role Bedrock runs batch jobs as (reads the input, writes the output). */
  batchRoleArn: z
    .string()
    .regex(
      /^arn:aws(-[a-z]+)*:iam::\d{12}:role\/[\w+=,.@/-]+$/,
      'must be an IAM role ARN such as arn:aws:iam::123456789012:role/BedrockBatch',
    )
    .optional(),
  /** Another S3 URL (an S3-compatible store; a local server in tests). */
  batchS3Endpoint: httpUrl.optional(),
  /** Another Bedrock control-plane URL (a VPC endpoint; a local server in tests). */
  batchControlURL: httpUrl.optional(),
};

/** The endpoint's batch fields as the chat model takes them. */
export function batchSettingsOf(
  settings: Partial<{
    [Key in keyof typeof BEDROCK_BATCH_SETTINGS]: z.infer<(typeof BEDROCK_BATCH_SETTINGS)[Key]>;
  }>,
): BedrockBatchSettings {
  return {
    ...(settings.batchS3Uri ? { s3Uri: settings.batchS3Uri } : {}),
    ...(settings.batchOutputS3Uri ? { outputS3Uri: settings.batchOutputS3Uri } : {}),
    ...(settings.batchRoleArn ? { roleArn: settings.batchRoleArn } : {}),
    ...(settings.batchS3Endpoint ? { s3Endpoint: settings.batchS3Endpoint } : {}),
    ...(settings.batchControlURL ? { controlURL: settings.batchControlURL } : {}),
  };
}
