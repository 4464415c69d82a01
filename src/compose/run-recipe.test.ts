import { describe, expect, it } from 'vitest';
import { VERSION } from '../version.js';
import { rememberSecret } from './known-secrets.js';
import { medbenchIdentity } from './medbench-identity.js';
import { promptDigests, recordedOptions } from './run-recipe.js';

describe('a run recipe', () => {
  it('keeps the options rerun needs, without the home, the shard, output switches or any secret', () => {
    rememberSecret('sk-read-from-the-environment');
    const request = {
      model: 'openai-compatible:m@http://user:hunter2@127.0.0.1:8000/v1',
      home: '/tmp/home',
      shard: { index: 1, count: 2 },
      dryRun: false,
      label: 'uses sk-read-from-the-environment',
      limit: 3,
      redact: undefined,
    };
    const options = recordedOptions(request);
    expect(options).toEqual({
      model: 'openai-compatible:m@http://127.0.0.1:8000/v1',
      label: 'uses [redacted]',
      limit: 3,
    });
  });

  it('hashes each conversation as sent, and all of them in order', () => {
    const sample = (id: string, prompt: string) =>
      ({
        id,
        suite: 's',
        task: 't',
        params: {},
        prompt,
        promptChars: prompt.length,
        promptTokens: {},
        gold: null,
      }) as const;
    const one = promptDigests([sample('a', 'x'), sample('b', 'y')]);
    const swapped = promptDigests([sample('b', 'y'), sample('a', 'x')]);
    const changed = promptDigests([sample('a', 'x'), sample('b', 'y ')]);
    expect(one.count).toBe(2);
    expect(one.samples[0]).toEqual(swapped.samples[1]);
    expect(one.sha256).not.toBe(swapped.sha256);
    expect(changed.samples[0]).toEqual(one.samples[0]);
    expect(changed.samples[1]![1]).not.toBe(one.samples[1]![1]);
  });

  it('names the medbench that ran: the version medbench --version prints', () => {
    const identity = medbenchIdentity();
    expect(identity.version).toBe(VERSION);
    expect(identity.code).toMatch(/^[0-9a-f]{64}$/);
    expect(identity.commit === null || /^[0-9a-f]{40}$/.test(identity.commit)).toBe(true);
  });
});
