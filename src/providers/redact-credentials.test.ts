import { describe, expect, it } from 'vitest';
import { redactCredentials } from './http-json.js';

describe('redactCredentials', () => {
  it('takes out the credentials a request sent, wherever a server echoes them', () => {
    const sent = { authorization: 'Bearer sk-live-0123456789abcdef', 'x-api-key': 'ant-key-987654321' };
    const echoed = JSON.stringify({
      error: 'bad request',
      headers: { authorization: 'Bearer sk-live-0123456789abcdef', 'x-api-key': 'ant-key-987654321' },
      note: 'your key sk-live-0123456789abcdef is not allowed; ant-key-987654321 either',
    });
    const redacted = redactCredentials(echoed, sent);
    expect(redacted).not.toMatch(/sk-live|0123456789abcdef|ant-key|987654321/);
    expect(redacted).toContain('[redacted]');
    expect(redacted).toContain('bad request');
  });

  it('takes out credentials it was not told about: header-like echoes and Bearer tokens', () => {
    const texts = [
      'Authorization: Bearer other-token-abcdefgh',
      'authorization=Basic dXNlcjpwYXNz',
      '{"X-Api-Key":"someone-elses-key"}',
      "api_key='k-1234567'",
      'upstream said: bearer abcdefghijklmnop rejected',
      '<td>Proxy-Authorization</td><td>Bearer xyzxyzxyzxyz</td>',
    ];
    for (const text of texts)
      expect(redactCredentials(text)).not.toMatch(
        /other-token|dXNlcjpwYXNz|someone-elses|k-1234567|abcdefghijklmnop/,
      );
    expect(redactCredentials('HTTP 500: model overloaded')).toBe('HTTP 500: model overloaded');
  });
});
