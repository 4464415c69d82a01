import { describe, expect, it } from 'vitest';
import { MedbenchError } from '../core/errors.js';
import { getTokenizer, resolveTokenizerName } from './registry.js';

describe('tokenizer registry', () => {
  it('maps model names to encodings', () => {
    expect(resolveTokenizerName('gpt-4o')).toBe('o200k_base');
    expect(resolveTokenizerName('gpt-4-turbo-2024-04-09')).toBe('cl100k_base');
    expect(resolveTokenizerName('meta-llama/Meta-Llama-3.1-8B-Instruct')).toBe('llama3');
    expect(resolveTokenizerName('claude-3-haiku-20240307')).toBe('claude-legacy');
    expect(resolveTokenizerName('cl100k_base')).toBe('cl100k_base');
  });

  it('rejects an unknown name with a code and a hint', () => {
    try {
      resolveTokenizerName('mystery-model');
      expect.unreachable();
    } catch (error) {
      expect(MedbenchError.is(error) && error.code).toBe('TOKENIZER_UNKNOWN');
      expect((error as MedbenchError).hint).toContain('o200k_base');
    }
  });

  it('counts tokens with the real vocabularies', async () => {
    // "hello world" is two tokens in every BPE vocabulary here; a Chinese phrase differs by vocabulary.
    for (const name of ['o200k_base', 'cl100k_base', 'llama3']) {
      const tokenizer = await getTokenizer(name);
      expect(tokenizer.count('hello world')).toBe(2);
    }
    const cl100k = await getTokenizer('cl100k_base');
    const o200k = await getTokenizer('o200k_base');
    expect(cl100k.count('小星星看向一小块区域')).toBeGreaterThan(o200k.count('小星星看向一小块区域'));
  });

  it('counts text that spells a special token as ordinary text, as tiktoken encode_ordinary does', async () => {
    const o200k = await getTokenizer('o200k_base');
    // tiktoken 1.0.22 encode_ordinary('<|endoftext|> hi') = [27, 91, 419, 1440, 919, 91, 29, 5911].
    expect(o200k.encode!('<|endoftext|> hi')).toEqual([27, 91, 419, 1440, 919, 91, 29, 5911]);
    expect(o200k.count('a<|fim_prefix|>b')).toBe(8);
  });
});
