import { MedbenchError } from '../../core/errors.js';
import { isClaudeOnBedrock } from './bedrock-claude-body.js';

/** A Bedrock endpoint's batch inference settings (its config fields `batchS3Uri` …). */
export interface BedrockBatchSettings {
  /** Where medbench writes each batch's input file (`s3://bucket/prefix/`). */
  s3Uri?: string;
  /** Where Bedrock writes the output (default: `output/` under `s3Uri`). */
  outputS3Uri?: string;
  /** The service role Bedrock runs the job as (reads the input, writes the output). */
  roleArn?: string;
  /** Another S3 URL (an S3-compatible store; a local server in tests): path-style addressing. */
  s3Endpoint?: string;
  /** Another Bedrock control-plane URL (a VPC endpoint; a local server in tests). */
  controlURL?: string;
}

/** A bucket and a key (or key prefix) of S3. */
export interface S3Place {
  bucket: string;
  key: string;
}

/** `s3://bucket/some/key` as its bucket and key. */
export function s3Place(uri: string): S3Place {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  if (!match)
    throw new MedbenchError({
      code: 'CONFIG_INVALID',
      message: `"${uri}" is not an S3 URI (s3://bucket/prefix/).`,
    });
  return { bucket: match[1]!, key: match[2]! };
}

/** A prefix of S3 keys: empty, or ending in one slash. */
export const asPrefix = (key: string) => (key === '' || key.endsWith('/') ? key : `${key}/`);

/** Where a model's batches go, checked: the input prefix, the output URI and the role. */
export interface BatchPlacement {
  input: S3Place;
  outputUri: string;
  roleArn: string;
}

/**
 * The batch settings `run --batch` needs of a Bedrock model, or a usage error: a model family
 * other than Claude (its native body is not built here), or the fields the config lacks, named.
 */
export function batchPlacement(modelId: string, settings: BedrockBatchSettings): BatchPlacement {
  if (!isClaudeOnBedrock(modelId))
    throw new MedbenchError({
      code: 'USAGE',
      message: `--batch on Bedrock takes Anthropic Claude models (anthropic.claude-…, or an inference profile such as us.anthropic.claude-…); "${modelId}" is another family, whose InvokeModel body medbench does not build.`,
      hint: 'Leave out --batch for this model (Converse answers it one request at a time), or name a Claude model.',
    });
  const missing = [
    ...(settings.s3Uri ? [] : ['"batchS3Uri" (where the input files go, e.g. "s3://my-bucket/medbench/")']),
    ...(settings.roleArn
      ? []
      : [
          '"batchRoleArn" (the service role Bedrock runs the job as, e.g. "arn:aws:iam::123456789012:role/BedrockBatch")',
        ]),
  ];
  if (missing.length > 0 || !settings.s3Uri || !settings.roleArn)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--batch on Bedrock reads and writes its batches in S3: the endpoint of "${modelId}" has no ${missing.join(' and no ')}.`,
      hint: `Add ${missing.map((entry) => entry.split(' ')[0]).join(' and ')} to the model's endpoint in medbench.config.json (docs/providers/bedrock.md, "Batch inference"); "batchOutputS3Uri" is optional.`,
    });
  const input = s3Place(settings.s3Uri);
  return {
    input: { bucket: input.bucket, key: asPrefix(input.key) },
    outputUri: settings.outputS3Uri ?? `s3://${input.bucket}/${asPrefix(input.key)}output/`,
    roleArn: settings.roleArn,
  };
}
