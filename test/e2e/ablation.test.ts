import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, temporaryHome } from './cli.js';

const home = temporaryHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the context-setting ablation of Figure 6 (built CLI)', () => {
  it('builds Counting with the medical and generic haystacks and per-model maximum, runs them, and compares', async () => {
    const data = join(ROOT, 'samples', 'medodyssey');
    const common = [
      'build',
      'medodyssey',
      '--data',
      data,
      '--task',
      'counting',
      '--levels',
      '1000,1500',
      '--counting-sentences',
      '2-4',
    ];
    const settings = {
      medical: [],
      generic: ['--haystack', 'generic'],
      maximum: ['--mic', 'per-model', '--tokenizers', 'o200k_base'],
    };
    for (const [name, extra] of Object.entries(settings)) {
      const out = join(home, `${name}.jsonl`);
      expect((await runCli([...common, ...extra, '--out', out])).code).toBe(0);
      const run = await runCli([
        '--home',
        home,
        'run',
        '--dataset',
        out,
        '--model',
        'baseline',
        '--tokenizer',
        'o200k_base',
        '--context-window',
        '128000',
      ]);
      expect(run.code).toBe(0);
    }
    const text = (await runCli(['--home', home, 'report', '--metric', 'esm', '--width', '0'])).stdout;
    expect(text).toMatch(
      /Counting — ESM by context setting and type \(Figure 6\)\nModel\s+Setting\s+Rep\.\s+Inc\.\s+Shuf\.\s+Cor\.\s+All\n/,
    );
    // 2 languages × 2 levels per type and setting, 16 in all; each row's 95% intervals on the line under it.
    expect(text).toMatch(
      /baseline:extractive\s+medical MIC(\s+\d\/4){4}\s+\d+\/16\n(\s+\[[\d.]+–[\d.]+%\]){5}\n\s+generic MIC(\s+\d\/4){4}\s+\d+\/16\n(\s+\[[\d.]+–[\d.]+%\]){5}\n\s+medical per-model maximum(\s+\d\/4){4}\s+\d+\/16\n/,
    );
    expect(text).not.toContain('no outputs here');
  });
});
