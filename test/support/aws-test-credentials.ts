import { afterAll, beforeAll } from 'vitest';

/**
 * For a test file or a describe: AWS credentials in the environment, where the SDK's default chain
 * finds them; the environment is restored afterwards.
 */
export function awsTestCredentials(accessKeyId: string, secretAccessKey: string): void {
  let saved: NodeJS.ProcessEnv;
  beforeAll(() => {
    saved = { ...process.env };
    process.env.AWS_ACCESS_KEY_ID = accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = secretAccessKey;
  });
  afterAll(() => {
    process.env = saved;
  });
}
