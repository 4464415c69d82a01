import { describe, expect, it } from 'vitest';
import { batchLineFailure } from '../providers/openai-compatible/openai-batch-output.js';
import { rememberSecret, shortReason } from './known-secrets.js';

describe('shortReason', () => {
  it('takes a key out of a batch line error before shortening it, so no part of one that straddles the cut shows', () => {
    const key = 'sk-live-straddling-0123456789abcdef';
    rememberSecret(key);
    // The key starts 190 characters into the message: a cut at 200 would leave its first ten.
    const message = `${'x'.repeat(190)}${key} and more`;
    const failure = batchLineFailure({ custom_id: 'c', response: { status_code: 400 }, error: { message } })!;
    const reason = shortReason(failure);
    expect(reason).not.toContain(key.slice(0, 8));
    expect(reason).toBe(`400: ${'x'.repeat(190)}[redacted]`);
  });
});
