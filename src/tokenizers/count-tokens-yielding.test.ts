import { describe, expect, it } from 'vitest';
import { countTokensYielding } from './count-tokens-yielding.js';
import { getTokenizer } from './registry.js';

describe('counting in slices', () => {
  it('gives the whole-text count for every tokenizer, on English, Chinese, code and blank lines', async () => {
    const paragraphs = [
      'The patient, a 64-year-old man, presented with chest pain radiating to the left arm.',
      '患者男性，64岁，因胸痛伴左上肢放射痛入院。既往有高血压病史十年。',
      '/usr/bin/env node\n  indented line\n\n\nafter blank lines',
      '- item one\n- item two\n\n## Heading\nText   with   spaces.',
    ];
    const text = Array.from({ length: 900 }, (_, index) => paragraphs[index % paragraphs.length]).join('\n');
    expect(text.length).toBeGreaterThan(50_000);
    for (const name of ['o200k_base', 'cl100k_base', 'llama3', 'claude-legacy']) {
      const tokenizer = await getTokenizer(name);
      expect(await countTokensYielding(tokenizer, text), name).toBe(tokenizer.count(text));
    }
  });

  it('lets timers run while a long text is counted', async () => {
    const tokenizer = await getTokenizer('o200k_base');
    const text = 'A line of haystack text about medicine.\n'.repeat(20_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const count = await countTokensYielding(tokenizer, text);
    clearInterval(timer);
    expect(count).toBe(tokenizer.count(text));
    expect(ticks).toBeGreaterThan(5);
  });
});
