import { describe, expect, it } from 'vitest';
import { endpointIdentity, routeUrl } from './endpoint-identity.js';

describe('endpoint identity', () => {
  it('is one string per server however its URL is written, and never holds credentials', () => {
    const forms = [
      'http://127.0.0.1:8000/v1',
      'http://127.0.0.1:8000/v1/',
      'HTTP://user:pass@127.0.0.1:8000/v1//',
      'http://127.0.0.1:8000/v1#fragment',
    ];
    expect(new Set(forms.map(endpointIdentity))).toEqual(new Set(['http://127.0.0.1:8000/v1']));
    expect(endpointIdentity('https://api.openai.com:443/v1')).toBe('https://api.openai.com/v1');
    expect(endpointIdentity('http://127.0.0.1:8001/v1')).not.toBe(
      endpointIdentity('http://127.0.0.1:8000/v1'),
    );
  });

  it('keeps query names and values that change answers, and redacts key-like values', () => {
    expect(endpointIdentity('https://x.openai.azure.com/openai?api-version=2024-06-01&api-key=abc123')).toBe(
      'https://x.openai.azure.com/openai?api-key=redacted&api-version=2024-06-01',
    );
    expect(endpointIdentity('https://h/v1?sig=s3cr3t&token=t0k')).not.toMatch(/s3cr3t|t0k/);
  });

  it('routes keep the base URL and its query', () => {
    expect(routeUrl('http://127.0.0.1:8000/v1/', '/chat/completions')).toBe(
      'http://127.0.0.1:8000/v1/chat/completions',
    );
    expect(routeUrl('https://h/openai?api-version=1', '/embeddings')).toBe(
      'https://h/openai/embeddings?api-version=1',
    );
  });
});
