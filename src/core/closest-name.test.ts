import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

describe('closestName', () => {
  it('finds the name a typo, a swap, a case or a dropped dash stands for', () => {
    expect(closestName('opanai', ['openai', 'anthropic', 'ollama'])).toBe('openai');
    expect(closestName('anthorpic', ['openai', 'anthropic'])).toBe('anthropic');
    expect(closestName('GPT4o', ['extractive', 'gpt-4o', 'llama3'])).toBe('gpt-4o');
  });

  it('suggests nothing for a name far from every candidate, or one that is a candidate', () => {
    expect(closestName('nonexistent', ['extractive', 'gpt-4o'])).toBeUndefined();
    expect(closestName('openai', ['openai', 'ollama'])).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});
