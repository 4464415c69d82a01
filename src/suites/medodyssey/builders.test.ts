import { describe, expect, it } from 'vitest';
import { CodePointText } from '../../tokenizers/code-point-text.js';
import { CorpusTokenIndex } from '../../tokenizers/corpus-token-index.js';
import { joinPromptParts } from '../../tokenizers/prompt-parts.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import { type BuildSamplesOptions, type BuildStatistics, buildSamples } from './build-samples.js';
import { countingParts } from './counting-parts.js';
import { countingPlan } from './counting-plan.js';
import { fitHaystackChars, pythonFloorDivide, ratioCharBudget } from './mic.js';
import { niahParts } from './niah-parts.js';
import { NIAH_INSTRUCTION } from './prompts.js';

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
  it('plans are seeded and follow each type', () => {
    const plan = (type: 'repeat' | 'increase' | 'shuffle' | 'correction', seed = 's') =>
      countingPlan({ type, seed, minSentences: 6, maxSentences: 20 });
    expect(plan('shuffle')).toEqual(plan('shuffle'));
    expect(plan('shuffle', 'a')).not.toEqual(plan('shuffle', 'b'));
    expect(new Set(plan('repeat').counts)).toEqual(new Set([1]));
    const increase = plan('increase').counts;
    expect(increase).toEqual(increase.map((_, index) => index + 1));
    const correction = plan('correction');
    expect(correction.wrongCounts).toHaveLength(correction.counts.length);
    correction.counts.forEach((count, index) => {
      expect(correction.wrongCounts![index]).not.toBe(count);
    });
    for (const type of ['repeat', 'increase', 'shuffle', 'correction'] as const) {
      const k = plan(type, type).counts.length;
      expect(k).toBeGreaterThanOrEqual(6);
      expect(k).toBeLessThanOrEqual(20);
    }
  });

  it('inserts the sentences in order at evenly spaced sentence boundaries', () => {
    const corpus = new CodePointText(
      Array.from({ length: 40 }, (_, index) => `Sentence ${index}.`).join(' '),
    );
    const plan = { counts: [3, 1, 2], wrongCounts: undefined };
    const { parts, insertOffsets } = countingParts({
      language: 'en',
      type: 'shuffle',
      plan,
      corpus,
      haystackChars: corpus.length,
    });
    const prompt = joinPromptParts(corpus, parts);
    const found = [...prompt.matchAll(/counted (\d+) little penguins?\./g)].map((match) => Number(match[1]));
    expect(found).toEqual([3, 1, 2]);
    for (const offset of insertOffsets) expect(prompt.slice(offset, offset + 15)).toBe('The little star');
    // Each sentence follows a "." of the haystack, near i/4 of the way through.
    insertOffsets.forEach((offset, index) => {
      expect(prompt[offset - 2]).toBe('.');
      const fraction = (offset - insertOffsets[0]! + 1) / prompt.length;
      expect(fraction).toBeLessThan(((index + 1) / 4) * 1.2);
    });
  });

  it('correction sentences state the wrong count, then the right one', () => {
    const corpus = new CodePointText('一。二。三。四。五。');
    const { parts } = countingParts({
      language: 'zh',
      type: 'correction',
      plan: { counts: [7], wrongCounts: [5] },
      corpus,
      haystackChars: corpus.length,
    });
    expect(joinPromptParts(corpus, parts)).toContain(
      '小星星看向一小块区域数了5只小企鹅，但发现数错了，于是又数了一遍，这次数对了，是7只小企鹅。',
    );
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

  it('builds exact and per-model samples with real token counts', async () => {
    const tokenizers = [await getTokenizer('o200k_base'), await getTokenizer('cl100k_base')];
    const options: BuildSamplesOptions = {
      sources: [
        {
          language: 'en',
          corpus,
          needles: [{ id: 3, needle: 'N.', input: 'Q?', ground_truth: ['A'], type: 'medical' }],
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
    };
    const statistics: BuildStatistics = { samples: 0, fastCountMismatches: 0, corpusExhausted: 0 };
    const samples = [...buildSamples(options, statistics)];
    expect(samples).toHaveLength(2 * (3 + 2));
    expect(statistics.fastCountMismatches).toBe(0);
    for (const sample of samples) {
      for (const tokenizer of tokenizers) {
        expect(sample.promptTokens[tokenizer.name]).toBe(tokenizer.count(sample.prompt));
        expect(sample.promptTokens[tokenizer.name]).toBeLessThanOrEqual(sample.params.level as number);
      }
      expect(Math.max(...Object.values(sample.promptTokens))).toBeGreaterThan(
        (sample.params.level as number) - 10,
      );
    }
    const perModel = [
      ...buildSamples({ ...options, mic: 'per-model', tasks: ['niah'], levels: [500] }, statistics),
    ];
    expect(perModel.map((sample) => sample.id)).toContain('niah-en-500-d50-n3@cl100k_base');
    const byFit = perModel.filter((sample) => sample.params.fitFor === 'cl100k_base');
    for (const sample of byFit) expect(sample.promptTokens.cl100k_base).toBeGreaterThan(490);
  });
});
