import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTokenizer } from '../../tokenizers/registry.js';
import { tokenRatios } from './ratios.js';
import { resolveDatasetFolder } from './release.js';

const shared = process.env.MEDBENCH_SHARED_DATA;
const folder = shared ? join(shared, 'medodyssey') : undefined;
const available = folder !== undefined && existsSync(join(folder, 'raw_data', 'en_guidelines'));
if (!available)
  console.warn(
    'SKIPPED ratios.test.ts (Table A1 check): set MEDBENCH_SHARED_DATA to the shared data folder.',
  );

describe.skipIf(!available)('token-to-character ratios against Table A1', () => {
  it('reproduce the published En.NIAH ratios of GPT-4, GPT-4o and Claude 3', async () => {
    const tokenizers = [
      await getTokenizer('gpt-4-turbo'),
      await getTokenizer('gpt-4o'),
      await getTokenizer('claude-3-haiku'),
    ];
    const [row] = tokenRatios({
      datasetFolder: resolveDatasetFolder(folder!),
      languages: ['en'],
      tokenizers,
      haystack: 'medical',
    });
    expect(row!.files).toEqual({ read: 3, listed: 3 });
    // Table A1, En.NIAH column: GPT-4 0.281, GPT-4o 0.275, Claude 3 Haiku/Sonnet 0.289.
    expect(row!.ratios.cl100k_base!.toFixed(3)).toBe('0.281');
    expect(row!.ratios.o200k_base!.toFixed(3)).toBe('0.275');
    expect(row!.ratios['claude-legacy']!.toFixed(3)).toBe('0.289');
    expect(row!.gammaNeeded).toBe(0.29);
  });
});
