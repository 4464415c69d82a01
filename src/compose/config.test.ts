import { describe, expect, it } from 'vitest';
import { configSchema } from './config.js';

function issuesOf(model: Record<string, unknown>): string[] {
  const parsed = configSchema.safeParse({ models: { m: model } });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('config: a setting a provider would drop is refused', () => {
  it.each(['gguf', 'baseline'])('%s refuses headers and query (it sends no request)', (provider) => {
    const issues = issuesOf({
      provider,
      model: 'x',
      endpoints: [{ headers: { 'X-Route': 'eu' }, query: { project: 'p' } }],
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        `models.m.endpoints.0.headers: ${provider} runs in this process and sends no request: remove it`,
        `models.m.endpoints.0.query: ${provider} runs in this process and sends no request: remove it`,
      ]),
    );
  });

  it('an HTTP provider keeps them', () => {
    expect(
      issuesOf({
        provider: 'openai-compatible',
        model: 'x',
        endpoints: [{ baseURL: 'http://127.0.0.1:8000/v1', headers: { 'X-Route': 'eu' }, query: { p: '1' } }],
      }),
    ).toEqual([]);
  });
});
