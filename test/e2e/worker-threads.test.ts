import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bertScoreFromTokens } from '../../dist/metrics/bertscore.js';
import { tokenizeCorpus, tokenizeTexts } from '../../dist/providers/retrievers/bm25-tokens.js';
import { matchPairs } from '../../dist/suites/clue/bertscore-pass.js';
import { type CountPath, countMany } from '../../dist/tokenizers/count-many.js';
import { getTokenizer } from '../../dist/tokenizers/registry.js';
import { ROOT } from './cli.js';

/**
 * The built `countMany` on the sample haystacks (en and zh lines, numbered so no two repeat, about
 * 100k characters): the parallel paths medbench takes for a corpus — worker threads for the OpenAI
 * encodings, the native Rust encoder for Llama 3 — give each text's `count`, in order.
 */
const raw = join(ROOT, 'samples', 'medodyssey', 'dataset', 'raw_data');
const lines = readdirSync(raw, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))
  .flatMap((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8').split(/(?<=\n)/));
const texts = Array.from({ length: 10 }, (_, round) =>
  lines.map((line, index) => `${round}.${index} ${line}`),
).flat();

describe('countMany (built)', () => {
  it('counts on every core and agrees with count, text by text', async () => {
    expect(texts.join('').length).toBeGreaterThan(50_000);
    const expected: Record<string, CountPath> = {
      o200k_base: availableParallelism() > 1 ? 'workers' : 'in-thread',
      cl100k_base: availableParallelism() > 1 ? 'workers' : 'in-thread',
      llama3: 'native',
    };
    for (const [name, path] of Object.entries(expected)) {
      const tokenizer = await getTokenizer(name);
      let taken: CountPath | undefined;
      // A low threshold: by default only texts of 8 M characters or more go to workers.
      const counts = await countMany(tokenizer, texts, {
        onPath: (chosen) => (taken = chosen),
        parallelMinChars: 50_000,
      });
      expect(taken, name).toBe(path);
      expect(counts.length).toBe(texts.length);
      const mismatches = texts.filter((text, index) => counts[index] !== tokenizer.count(text));
      expect(mismatches, name).toEqual([]);
    }
  });
});

describe('BM25 word tokens of a large corpus (built)', () => {
  it('come from worker threads with the vocabulary and term ids of one pass', async () => {
    // The sample lines again: English (the regular-expression path) and Chinese (ICU's segmenter),
    // with a low threshold (by default workers start at 2 M characters).
    const corpus = Array.from({ length: 2 }, (_, round) => texts.map((text) => `${round} ${text}`)).flat();
    const parallel = await tokenizeCorpus(corpus, { parallelMinChars: 50_000 });
    expect(parallel.threads).toBe(availableParallelism() > 1 ? availableParallelism() : 1);
    const single = tokenizeTexts(corpus);
    expect([...parallel.termIds.keys()]).toEqual(single.vocabulary);
    expect(parallel.documentTerms.length).toBe(corpus.length);
    parallel.documentTerms.forEach((ids, document) => {
      expect([...ids]).toEqual([
        ...single.ids.subarray(single.starts[document]!, single.starts[document + 1]!),
      ]);
    });
  });
});

describe('BERTScore matching of many pairs (built)', () => {
  it('runs on worker threads and gives the F1 of this thread, to the last bit', async () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    };
    const text = (length: number) => ({
      vectors: Array.from({ length: length + 2 }, () => Float32Array.from({ length: 64 }, random)),
      start: 1,
      end: length + 1,
    });
    // Half in one shared-memory block a text (as the local ONNX encoder gives them), half copied.
    const shared = (tokens: ReturnType<typeof text>) => {
      const block = new Float32Array(new SharedArrayBuffer(tokens.vectors.length * 64 * 4));
      tokens.vectors.forEach((vector, row) => {
        block.set(vector, row * 64);
      });
      return { ...tokens, vectors: tokens.vectors.map((_, row) => block.subarray(row * 64, (row + 1) * 64)) };
    };
    const texts = Array.from({ length: 30 }, (_, index) =>
      index % 2 === 0 ? shared(text(5 + ((index * 7) % 40))) : text(5 + ((index * 7) % 40)),
    );
    // Texts shared by several pairs, as a reference is among CLUE's several outputs.
    const pairs = Array.from(
      { length: 90 },
      (_, index) => [texts[index % 30]!, texts[(index * 11) % 30]!] as const,
    );
    let taken: string | undefined;
    const f1s = await matchPairs(pairs, { parallelMinProducts: 0, onPath: (path) => (taken = path) });
    expect(taken).toBe(availableParallelism() > 1 ? 'workers' : 'in-thread');
    expect([...f1s]).toEqual(
      pairs.map(([candidate, reference]) => bertScoreFromTokens(candidate, reference).f1),
    );
  });
});
