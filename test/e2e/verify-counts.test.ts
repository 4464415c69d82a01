import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getTokenizer } from '../../src/tokenizers/registry.js';
import { runCli, temporaryHome } from './cli.js';

/**
 * Exact MIC on the real release, a subset in CI: NIAH and Counting, both languages, three levels,
 * o200k_base + llama3. `--verify-counts` tokenizes every final prompt in full and compares with
 * the count derived from the haystack's prefix sums; the test also recounts the written prompts
 * itself. Needs MEDBENCH_SHARED_DATA=<shared/data>.
 */
const shared = process.env.MEDBENCH_SHARED_DATA;
const release = shared ? join(shared, 'medodyssey') : undefined;
const available = release !== undefined && existsSync(join(release, 'raw_data'));
const home = temporaryHome();
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe.runIf(available)('exact MIC token counts derived from prefix sums', () => {
  it('equal full tokenization for every prompt of a subset (o200k_base + llama3, en and zh)', async () => {
    const out = join(home, 'exact.jsonl');
    const result = await runCli([
      '--home',
      home,
      'build',
      'medodyssey',
      '--data',
      release!,
      '--out',
      out,
      '--mic',
      'exact',
      '--tokenizers',
      'o200k_base,llama3',
      '--levels',
      '4k,8k,16k',
      '--depths',
      '0,50,100',
      '--needles',
      '0,7,19',
      '--verify-counts',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const said = /verified (\d+) fitted prompts against full tokenization: (\d+) mismatches/.exec(
      result.stderr,
    );
    expect(said, result.stderr).not.toBeNull();
    // llama3's haystacks were counted by the native Rust encoder (o200k's, this small, in this
    // thread: worker threads start at 200k characters) — and the full recount below agrees.
    expect(result.stderr).toMatch(
      /haystacks counted once per tokenizer: o200k_base (in this thread|on worker threads), llama3 by its native encoder\./,
    );
    const [lines, tokenizers] = [
      readFileSync(out, 'utf8').trim().split('\n').slice(1),
      [await getTokenizer('o200k_base'), await getTokenizer('llama3')],
    ];
    let recounted = 0;
    for (const line of lines) {
      const sample = JSON.parse(line) as { prompt: string; promptTokens: Record<string, number> };
      for (const tokenizer of tokenizers)
        expect(sample.promptTokens[tokenizer.name]).toBe(tokenizer.count(sample.prompt));
      recounted++;
    }
    console.log(
      `--verify-counts: ${said![1]} fitted prompts, ${said![2]} mismatches; ${recounted} written prompts recounted in full, all equal.`,
    );
    expect(Number(said![2])).toBe(0);
    expect(Number(said![1])).toBe(recounted);
  }, 300_000);
});
