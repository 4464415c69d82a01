import { describe, expect, it } from 'vitest';
import { modelConfigFromSpec } from './bind-model.js';
import { configSchema } from './config.js';

const config = configSchema.parse({
  models: {
    'llama3-70b': {
      provider: 'openai-compatible',
      model: 'llama3',
      endpoints: [{ baseURL: 'http://127.0.0.1:8000/v1' }],
    },
  },
});

/** The message of the error `modelConfigFromSpec` throws for `spec`. */
function refusal(spec: string): string {
  try {
    modelConfigFromSpec(spec, config);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${spec} was accepted`);
}

describe('a model spec medbench cannot understand gets a "did you mean"', () => {
  it('a bare model name: its provider', () => {
    expect(refusal('gpt-4o')).toBe(
      'Cannot understand the model spec "gpt-4o". Did you mean "openai:gpt-4o"?',
    );
    expect(refusal('claude-3-5-sonnet')).toContain('Did you mean "anthropic:claude-3-5-sonnet"?');
  });

  it('a mistyped provider, a mistyped config name', () => {
    expect(refusal('opanai:gpt-4o')).toContain('Did you mean "openai:gpt-4o"?');
    expect(refusal('openai-compatable:m@http://127.0.0.1:8000/v1')).toContain(
      'Did you mean "openai-compatible:m@http://127.0.0.1:8000/v1"?',
    );
    expect(refusal('llama3-7b')).toContain('Did you mean "llama3-70b"?');
  });

  it('a base URL without http://', () => {
    expect(refusal('openai-compatible:llama3@127.0.0.1:8000/v1')).toContain(
      'Did you mean "openai-compatible:llama3@http://127.0.0.1:8000/v1"?',
    );
  });

  it('nothing to suggest: the forms only', () => {
    expect(refusal('something-else')).toBe('Cannot understand the model spec "something-else".');
  });
});
