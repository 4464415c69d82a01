import { describe, expect, it } from 'vitest';
import type { ChatModel } from '../core/chat-model.js';
import { MedbenchError } from '../core/errors.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { checkRestrictedData, mayReceiveRestricted } from './restricted-data.js';

describe('mayReceiveRestricted', () => {
  it.each([
    ['', undefined, true],
    ['http://127.0.0.1:8000/v1', undefined, true],
    ['http://127.5.6.7:8000/v1', undefined, true],
    ['http://localhost:11434/v1', undefined, true],
    ['http://LOCALHOST:11434/v1', undefined, true],
    ['http://[::1]:8000/v1', undefined, true],
    ['https://api.openai.com/v1', undefined, false],
    ['https://api.anthropic.com', undefined, false],
    ['http://10.0.0.5:8000/v1', undefined, false],
    ['http://192.0.2.2:8000/v1', undefined, false],
    // A name that only looks like loopback.
    ['http://127.0.0.1.example.com/v1', undefined, false],
    ['http://localhost.example.com/v1', undefined, false],
    ['not a url', undefined, false],
    ['https://my-deployment.openai.azure.com/openai', true, true],
    ['http://127.0.0.1:8000/v1', false, false],
  ])('%s (config: %s) → %s', (endpoint, approved, allowed) => {
    expect(mayReceiveRestricted(endpoint, approved).allowed).toBe(allowed);
  });
});

function binding(endpoints: Array<{ endpoint: string; approved?: boolean }>): ModelBinding {
  return {
    label: 'm',
    provider: 'openai-compatible',
    modelId: 'm',
    endpoints: endpoints.map(({ endpoint, approved }) => ({
      model: { provider: 'openai-compatible', modelId: 'm', endpoint } as ChatModel,
      concurrency: 1,
      ...(approved !== undefined ? { restrictedDataApproved: approved } : {}),
    })),
    contextWindow: undefined,
    tokenizer: undefined,
    prices: undefined,
    instruct: true,
    systemRole: true,
    parameters: { temperature: 0, maxOutputTokens: 10 },
  };
}

describe('checkRestrictedData', () => {
  const restriction = { what: 'CLUE MedNLI (MIMIC-III)', why: 'derived from MIMIC' };

  it('lets unrestricted data go anywhere', () => {
    expect(() =>
      checkRestrictedData(binding([{ endpoint: 'https://api.openai.com/v1' }]), undefined),
    ).not.toThrow();
  });

  it('refuses when any endpoint of a binding may not receive it, naming each such endpoint', () => {
    const model = binding([
      { endpoint: 'http://127.0.0.1:8000/v1' },
      { endpoint: 'https://api.openai.com/v1' },
      { endpoint: 'http://10.1.2.3:8000/v1', approved: true },
    ]);
    let error: unknown;
    try {
      checkRestrictedData(model, restriction);
    } catch (caught) {
      error = caught;
    }
    expect(MedbenchError.is(error) && error.code).toBe('DATA_RESTRICTED');
    const { message, hint } = error as MedbenchError;
    expect(message).toContain('CLUE MedNLI (MIMIC-III) is restricted (derived from MIMIC)');
    expect(message).toContain('https://api.openai.com/v1 (a remote endpoint not approved in the config)');
    expect(message).not.toContain('127.0.0.1');
    expect(message).not.toContain('10.1.2.3');
    expect(hint).toContain('"restrictedDataApproved": true');
  });

  it('passes local, in-process and approved endpoints', () => {
    const model = binding([
      { endpoint: '' },
      { endpoint: 'http://localhost:8000/v1' },
      { endpoint: 'https://example.openai.azure.com/openai', approved: true },
    ]);
    expect(() => checkRestrictedData(model, restriction)).not.toThrow();
  });
});
