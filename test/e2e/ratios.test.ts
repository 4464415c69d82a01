import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './cli.js';

describe('medbench ratios (built CLI)', () => {
  it('gives tokens per character per tokenizer and the γ that covers them all', async () => {
    const result = await runCli([
      'ratios',
      '--data',
      join(ROOT, 'samples', 'medodyssey'),
      '--tokenizers',
      'o200k_base,cl100k_base',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const rows = (JSON.parse(result.stdout) as { corpus: unknown }).corpus as Array<{
      language: string;
      ratios: Record<string, number>;
      gammaNeeded: number;
    }>;
    expect(rows.map((row) => row.language)).toEqual(['en', 'zh']);
    for (const row of rows) {
      const highest = Math.max(...Object.values(row.ratios));
      expect(row.gammaNeeded).toBeGreaterThanOrEqual(highest);
      expect(row.gammaNeeded - highest).toBeLessThan(0.01);
    }
    // Chinese text costs far more tokens per character than English under both vocabularies.
    expect(rows[1]!.ratios.cl100k_base).toBeGreaterThan(3 * rows[0]!.ratios.cl100k_base!);
  });

  it('names an unknown tokenizer', async () => {
    const result = await runCli([
      'ratios',
      '--data',
      join(ROOT, 'samples', 'medodyssey'),
      '--tokenizers',
      'nope',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error [TOKENIZER_UNKNOWN]');
  });
});
