import { describe, expect, it } from 'vitest';
import type { Tokenizer } from '../../core/tokenizer.js';
import { CodePointText } from '../../tokenizers/code-point-text.js';
import { CorpusTokenIndex } from '../../tokenizers/corpus-token-index.js';
import { joinPromptParts } from '../../tokenizers/prompt-parts.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import { type BuildSamplesOptions, type BuildStatistics, buildSamples } from './build-samples.js';
import { countingGrid, seededGroupDraws } from './counting-draws.js';
import { countingHaystackOf } from './counting-haystack.js';
import { countingParts } from './counting-parts.js';
import { fitHaystackChars, pythonFloorDivide, ratioCharBudget } from './mic.js';
import { niahParts } from './niah-parts.js';
import { COUNTING_INSTRUCTION, NIAH_INSTRUCTION } from './prompts.js';

const en = new CodePointText('Alpha beta. Gamma delta epsilon. Zeta eta.\nTheta iota kappa. Lambda mu.');
const zh = new CodePointText('甲乙丙。丁戊己庚。辛壬.癸子\n丑寅卯。');

function niah(corpus: CodePointText, language: 'en' | 'zh', depth: number, haystackChars: number) {
  const built = niahParts({ language, needle: 'NEEDLE', question: 'Q?', depth, corpus, haystackChars });
  return { prompt: joinPromptParts(corpus, built.parts), needleOffset: built.needleOffset };
}

describe('NIAH needle placement', () => {
  const question = '\nQuestion: Q?\nAnswer: ';
  it('depth 0 puts the needle and a newline before the haystack', () => {
    const { prompt, needleOffset } = niah(en, 'en', 0, 11);
    expect(prompt).toBe(`${NIAH_INSTRUCTION.en}NEEDLE\nAlpha beta.${question}`);
    expect(prompt.slice(needleOffset, needleOffset + 6)).toBe('NEEDLE');
  });

  it('depth 100 puts a newline and the needle after the haystack', () => {
    const { prompt, needleOffset } = niah(en, 'en', 100, 11);
    expect(prompt).toBe(`${NIAH_INSTRUCTION.en}Alpha beta.\nNEEDLE${question}`);
    expect(prompt.slice(needleOffset, needleOffset + 6)).toBe('NEEDLE');
  });

  it('a middle depth walks left from floor(H·d/100) to the nearest "." or newline', () => {
    // H = 32: target floor(32·50/100) = 16 ("a" of "delta"); the nearest boundary left is "." at 10.
    const { prompt } = niah(en, 'en', 50, 32);
    expect(prompt).toBe(`${NIAH_INSTRUCTION.en}Alpha beta.\nNEEDLE\n Gamma delta epsilon.${question}`);
  });

  it('a boundary character exactly at the target cuts right after it', () => {
    // H = 40, depth 25: target 10 is the "." itself.
    const { prompt } = niah(en, 'en', 25, 40);
    expect(prompt.startsWith(`${NIAH_INSTRUCTION.en}Alpha beta.\nNEEDLE\n Gamma`)).toBe(true);
  });

  it('a newline is a boundary too', () => {
    // H = 60, depth 75: target 45 ("e" of "Theta") → walks left to the newline at 42.
    const { prompt } = niah(en, 'en', 75, 60);
    expect(prompt).toContain('Zeta eta.\n\nNEEDLE\nTheta');
  });

  it('with no boundary to the left, the cut falls after the first character (published behaviour)', () => {
    const corpus = new CodePointText('abcdefghij');
    const { prompt } = niah(corpus, 'en', 50, 10);
    expect(prompt).toContain('a\nNEEDLE\nbcdefghij');
  });

  it('zh cuts after "。" and newlines, not after "."', () => {
    // H = 14, depth 75: target 10 ("癸"); "." at 12 is right of it, "。" at 8 is the boundary.
    const { prompt } = niah(zh, 'zh', 75, 14);
    expect(prompt).toContain('丁戊己庚。\nNEEDLE\n辛壬.癸子');
    // depth 90 of H = 16: target 14 is the newline itself.
    const late = niah(zh, 'zh', 90, 16);
    expect(late.prompt).toContain('癸子\n\nNEEDLE\n丑');
  });
});

describe('MIC budgets', () => {
  it("uses Python's float floor division", () => {
    expect(ratioCharBudget(4000, 0.36)).toBe(11111);
    expect(ratioCharBudget(200000, 0.36)).toBe(555555);
    expect(ratioCharBudget(16000, 1.41)).toBe(11347);
    expect(pythonFloorDivide(1, 0.1)).toBe(9); // Python: 1 // 0.1 == 9.0, while floor(1 / 0.1) is 10
  });
});

describe('counting builder', () => {
  it('lays out the grid as published: type = id mod 4, level = id mod 7, groups of four ids', () => {
    const grid = countingGrid([4000, 8000, 16000, 32000, 64000, 128000, 200000]);
    expect(grid).toHaveLength(28);
    expect(grid[0]).toEqual({ id: 0, type: 'repeat', level: 4000, group: 0 });
    expect(grid[1]).toEqual({ id: 1, type: 'increase', level: 8000, group: 0 });
    expect(grid[6]).toEqual({ id: 6, type: 'shuffle', level: 200000, group: 1 });
    expect(grid[27]).toEqual({ id: 27, type: 'correction', level: 200000, group: 6 });
    // Every (type, level) pair once.
    expect(new Set(grid.map((cell) => `${cell.type}@${cell.level}`)).size).toBe(28);
    // Two levels share a factor with 4: id = 4 × level index + type index.
    expect(countingGrid([1000, 1500]).map((cell) => `${cell.id}:${cell.type}@${cell.level}`)).toEqual([
      '0:repeat@1000',
      '1:increase@1000',
      '2:shuffle@1000',
      '3:correction@1000',
      '4:repeat@1500',
      '5:increase@1500',
      '6:shuffle@1500',
      '7:correction@1500',
    ]);
  });

  it('seeded draws keep every published constraint, for any seed', () => {
    for (let trial = 0; trial < 300; trial++) {
      const draws = seededGroupDraws({ seed: `t${trial}`, sentences: { min: 2, max: 20 } });
      const k = draws.repeat.counts.length;
      expect(k).toBeGreaterThanOrEqual(2);
      expect(k).toBeLessThanOrEqual(20);
      expect(draws.repeat.counts).toEqual(Array.from({ length: k }, () => 1));
      expect(draws.increase.counts).toEqual(Array.from({ length: k }, (_, index) => index + 1));
      const wrong = draws.correction.wrongCounts!;
      const corrected = draws.correction.counts;
      expect(draws.shuffle.counts).toEqual(wrong);
      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      expect(sum(wrong)).toBeLessThanOrEqual(99);
      expect(sum(wrong)).toBeGreaterThanOrEqual(2 * k);
      expect(sum(corrected)).toBe(sum(wrong));
      corrected.forEach((count, index) => {
        expect(count).toBeGreaterThanOrEqual(1);
        expect(count).not.toBe(wrong[index]);
      });
    }
    expect(seededGroupDraws({ seed: 'a', sentences: { min: 6, max: 20 } })).toEqual(
      seededGroupDraws({ seed: 'a', sentences: { min: 6, max: 20 } }),
    );
  });

  it('cuts the medical haystack at its last newline and inserts sentences after boundaries', () => {
    // 甲0 乙1 丙2 。3 ↵4 丁5 戊6 。7 ↵8 ↵9 庚10 辛11 壬12 。13 ↵14 癸15 子16
    const haystack = countingHaystackOf({
      language: 'zh',
      kind: 'medical',
      text: '甲乙丙。\n丁戊。\n\n庚辛壬。\n癸子',
    });
    const built = countingParts({
      language: 'zh',
      type: 'shuffle',
      draw: { counts: [2, 5], wrongCounts: undefined, offsets: [4, 10], source: 'published' },
      haystack,
      budget: 17, // past the end: walks left from "子" (16) to the newline at 14, keeping 15 characters
      seed: 'unused',
      sampleId: 't',
    });
    expect(built.kept).toBe(15);
    expect(joinPromptParts(haystack.text, built.parts)).toBe(
      `${COUNTING_INSTRUCTION.plain.zh}甲乙丙。\n小星星看向一小块区域，数了2只小企鹅。\n\n丁戊。\n\n\n小星星看向一小块区域，数了5只小企鹅。\n庚辛壬。\n`,
    );
    // Each sentence is 19 characters plus its two newlines.
    expect(built.insertOffsets).toEqual([167 + 4 + 1, 167 + 4 + 21 + 6 + 1]);
  });

  it('generic zh haystack: cut at 。, then every 。 of the kept text becomes a newline', () => {
    const haystack = countingHaystackOf({ language: 'zh', kind: 'generic', text: '一二。三\n四。五六。七' });
    const built = countingParts({
      language: 'zh',
      type: 'correction',
      draw: { counts: [7], wrongCounts: [5], offsets: [3], source: 'published' },
      haystack,
      budget: 9, // "六。" ends at 8: keeps 9
      seed: 'unused',
      sampleId: 't',
    });
    expect(joinPromptParts(haystack.text, built.parts)).toBe(
      `${COUNTING_INSTRUCTION.correction.zh}一二\n\n小星星看向一小块区域数了5只小企鹅，但发现数错了，于是又数了一遍，这次数对了，是7只小企鹅。\n三\n四\n五六\n`,
    );
  });

  it('rejects published offsets that do not fit the haystack, and draws seeded ones among boundaries', () => {
    const haystack = countingHaystackOf({
      language: 'en',
      kind: 'medical',
      text: 'A b. C d.\nE f. G h.\nI j.\n',
    });
    const draw = { counts: [1, 2], wrongCounts: undefined, offsets: [3, 4], source: 'published' as const };
    expect(() =>
      countingParts({
        language: 'en',
        type: 'shuffle',
        draw,
        haystack,
        budget: 30,
        seed: 's',
        sampleId: 'x',
      }),
    ).toThrow(/x: cut_offsets\[0\] = 3 is not just after a sentence boundary/);
    const seeded = countingParts({
      language: 'en',
      type: 'shuffle',
      draw: { ...draw, offsets: undefined, source: 'seeded' },
      haystack,
      budget: 30,
      seed: 's',
      sampleId: 'x',
    });
    // Boundaries after "." and newlines: 4, 9, 10, 14, 19, 20, 24, 25 (the end).
    expect(seeded.haystackOffsets).toHaveLength(2);
    for (const offset of seeded.haystackOffsets) expect([4, 9, 10, 14, 19, 20, 24, 25]).toContain(offset);
    expect(seeded.haystackOffsets[0]).toBeLessThan(seeded.haystackOffsets[1]!);
  });
});

describe('exact MIC', () => {
  const text = Array.from(
    { length: 400 },
    (_, index) => `Line ${index}: imatinib ${index % 7} mg, response ${index % 3 ? 'major' : 'complete'}.`,
  ).join('\n');
  const corpus = new CodePointText(text);

  it('finds the longest context that fits every tokenizer', async () => {
    const tokenizers = [await getTokenizer('o200k_base'), await getTokenizer('llama3')];
    const indexes = tokenizers.map(
      (tokenizer) => new CorpusTokenIndex({ corpus, tokenizer, limit: corpus.length }),
    );
    const assemble = (haystackChars: number) =>
      niahParts({
        language: 'en',
        needle: 'The needle.',
        question: 'Which?',
        depth: 50,
        corpus,
        haystackChars,
      }).parts;
    const fitted = fitHaystackChars({ indexes, assemble, limit: 1000, maxHaystackChars: corpus.length })!;
    const countAll = (haystackChars: number) =>
      tokenizers.map((tokenizer) => tokenizer.count(joinPromptParts(corpus, assemble(haystackChars))));
    expect(Math.max(...countAll(fitted.haystackChars))).toBeLessThanOrEqual(1000);
    expect(Math.max(...countAll(fitted.haystackChars + 1))).toBeGreaterThan(1000);
    expect(Math.max(...Object.values(fitted.tokens))).toBeGreaterThan(990);
  });

  /** NIAH (needle 3) and Counting on the corpus, exact MIC, levels 500 and 1500. */
  const gridOptions = (tokenizers: Tokenizer[]): BuildSamplesOptions => ({
    sources: [
      {
        language: 'en',
        corpus,
        needles: [{ id: 3, needle: 'N.', input: 'Q?', ground_truth: ['A'], type: 'med' }],
        countingHaystack: countingHaystackOf({ language: 'en', kind: 'medical', text }),
      },
    ],
    tasks: ['niah', 'counting'],
    levels: [500, 1500],
    depths: [0, 50, 100],
    countingTypes: ['repeat', 'correction'],
    mic: 'exact',
    gamma: { en: 0.36, zh: 1.41 },
    tokenizers,
    haystack: 'medical',
    seed: 'test',
    countingSentences: { min: 6, max: 8 },
  });

  it('builds exact and per-model samples with real token counts', async () => {
    const tokenizers = [await getTokenizer('o200k_base'), await getTokenizer('cl100k_base')];
    const options = gridOptions(tokenizers);
    const statistics: BuildStatistics = { samples: 0, fastCountMismatches: 0, corpusExhausted: 0 };
    const samples = [...buildSamples(options, statistics)];
    expect(samples).toHaveLength(2 * (3 + 2));
    expect(statistics.fastCountMismatches).toBe(0);
    for (const sample of samples) {
      for (const tokenizer of tokenizers) {
        expect(sample.promptTokens[tokenizer.name]).toBe(tokenizer.count(sample.prompt));
        expect(sample.promptTokens[tokenizer.name]).toBeLessThanOrEqual(sample.params.level as number);
      }
      // NIAH cuts at any character; Counting cuts after a newline, so it may stop a line
      // (about 15 tokens here) short.
      const slack = sample.task === 'counting' ? 25 : 10;
      expect(Math.max(...Object.values(sample.promptTokens))).toBeGreaterThan(
        (sample.params.level as number) - slack,
      );
    }
    const perModel = [
      ...buildSamples({ ...options, mic: 'per-model', tasks: ['niah'], levels: [500] }, statistics),
    ];
    expect(perModel.map((sample) => sample.id)).toContain('niah-en-500-d50-n3@cl100k_base');
    const byFit = perModel.filter((sample) => sample.params.fitFor === 'cl100k_base');
    for (const sample of byFit) expect(sample.promptTokens.cl100k_base).toBeGreaterThan(490);
  });

  // Full tokenization of every prompt by every other tokenizer made per-model 6 × slower than exact
  // (one llama3 count of a 200k prompt takes seconds); the corpus indexes count them as exactly.
  it('per-model: the tokenizers a sample is not fitted for count it from the corpus index too, as exactly', async () => {
    const real = [await getTokenizer('o200k_base'), await getTokenizer('llama3')];
    const counted: string[] = [];
    const watched = real.map((tokenizer): Tokenizer => {
      const copy = Object.create(tokenizer) as Tokenizer;
      copy.count = (text: string) => {
        counted.push(text);
        return tokenizer.count(text);
      };
      return copy;
    });
    const statistics: BuildStatistics = { samples: 0, fastCountMismatches: 0, corpusExhausted: 0 };
    const options = { ...gridOptions(watched), mic: 'per-model' as const, levels: [800, 1500] };
    const samples = [
      ...buildSamples({ ...options, depths: [0, 50], countingTypes: ['repeat', 'shuffle'] }, statistics),
    ];
    expect(samples).toHaveLength(2 * 2 * (2 + 2));
    const prompts = new Set(samples.map((sample) => sample.prompt));
    expect(counted.filter((text) => prompts.has(text))).toEqual([]);
    for (const sample of samples) {
      for (const tokenizer of real)
        expect(sample.promptTokens[tokenizer.name]).toBe(tokenizer.count(sample.prompt));
    }
  });
});
