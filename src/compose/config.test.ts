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

describe('config: an embedding entry has what its provider needs', () => {
  function embeddingIssues(entry: Record<string, unknown>): string[] {
    const parsed = configSchema.safeParse({ embeddingModels: { e: entry } });
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  }

  it.each([
    [{ provider: 'local-onnx' }, 'local-onnx needs "folder"; every other provider needs "model"'],
    [{ provider: 'openai', folder: 'x' }, 'local-onnx needs "folder"; every other provider needs "model"'],
    [{ provider: 'vertex-ai', model: 'm', project: 'p' }, 'vertex-ai needs "project" and "location"'],
    [
      { provider: 'azure-openai', model: 'm', baseURL: 'https://r.example' },
      'azure-openai needs "baseURL" (the resource endpoint) and "deployment"',
    ],
    [
      { provider: 'openai-compatible', model: 'm' },
      'openai-compatible needs "baseURL", or "endpoints" for several replicas (not both)',
    ],
  ])('%j', (entry, message) => {
    expect(embeddingIssues(entry)).toEqual([`embeddingModels.e: ${message}`]);
  });

  it('a whole entry of each kind loads', () => {
    for (const entry of [
      { provider: 'local-onnx', folder: '/models/bge' },
      { provider: 'vertex-ai', model: 'm', project: 'p', location: 'europe-west4' },
      { provider: 'azure-openai', model: 'm', baseURL: 'https://r.example', deployment: 'd' },
      { provider: 'bedrock', model: 'amazon.titan-embed-text-v2:0', region: 'eu-central-1' },
    ])
      expect(embeddingIssues(entry)).toEqual([]);
  });
});
