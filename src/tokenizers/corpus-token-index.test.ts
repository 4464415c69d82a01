import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodePointText } from './code-point-text.js';
import { AFTER_LETTER, CorpusTokenIndex } from './corpus-token-index.js';
import { joinPromptParts, type PromptPart } from './prompt-parts.js';
import { getTokenizer } from './registry.js';

// A corpus with the awkward spots: punctuation before newlines, indented lines, a line
// starting with "/", numbers, CJK, a blank-ish line and a non-BMP character.
const lines = [
  'Chronic myeloid leukemia (CML) accounts for 15% of adult leukemias.',
  '  Indented line with spaces.',
  '/usr/bin style path line',
  'Dose: 400 mg/day; response at 3, 6 and 12 months.',
  '小星星看向一小块区域，数了6只小企鹅。',
  '<篇名>食疗本草',
  ' ',
  'Patients with T315I mutations 😀 need ponatinib.',
  "It's the patient's choice.",
];
const corpus = new CodePointText(
  Array.from({ length: 40 }, (_, index) => lines[index % lines.length]).join('\n'),
);

function seededPositions(count: number, seed: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % corpus.length;
  });
}

describe('CorpusTokenIndex', () => {
  for (const name of ['o200k_base', 'cl100k_base', 'llama3', 'claude-legacy']) {
    it(`counts assembled prompts exactly like a full pass (${name})`, async () => {
      const tokenizer = await getTokenizer(name);
      const index = new CorpusTokenIndex({ corpus, tokenizer, limit: corpus.length });
      const positions = seededPositions(60, name.length);
      for (let trial = 0; trial < 30; trial++) {
        const [a, b] = [positions[trial * 2]!, positions[trial * 2 + 1]!].sort((x, y) => x - y);
        const end = Math.min(corpus.length, b! + 50);
        const parts: PromptPart[] = [
          'Instruction line.\nContext:\n',
          { start: 0, end: a! },
          '\nThe needle sentence sits here.\n',
          { start: a!, end },
          '\nQuestion: where?\nAnswer: ',
        ];
        expect(index.count(parts)).toBe(tokenizer.count(joinPromptParts(corpus, parts)));
      }
      // Ranges that begin inside a run of newlines, after a literal ending in a space or a letter.
      const text = corpus.text;
      for (let run = text.indexOf('\n\n'); run !== -1; run = text.indexOf('\n\n', run + 1)) {
        for (const literal of ['tail ', 'tail', 'tail.\n']) {
          const parts: PromptPart[] = [literal, { start: run + 1, end: Math.min(corpus.length, run + 80) }];
          expect(index.count(parts), `${name} at ${run} after ${JSON.stringify(literal)}`).toBe(
            tokenizer.count(joinPromptParts(corpus, parts)),
          );
        }
      }
    });
  }
});

describe('additiveAfterLetters', () => {
  // Characters that meet at a cut in every way the rule allows and forbids: letters of several
  // scripts and cases, combining marks, apostrophes (ASCII and typographic), digits, spaces,
  // newlines, punctuation (ASCII and CJK), "/" and a character outside the BMP.
  const alphabet = [
    ...['a', 'Z', 'é', 'e\u0301', '\u0301', 'ß', 'Ω', 'я', '中', '文', 'ア', 'ㄱ', 'क', 'ि', 'हिन्दी'],
    ...["'", "'t", "'ll", '’', 's', 't', 'll', 'don', '0', '7', '123', ' ', '  ', '\n', '\n\n', '\t'],
    ...[',', '.', '，', '。', '（', '-', '/', '😀', '𠀋'],
  ];
  const text = fc
    .array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 24 })
    .map((pieces) => pieces.join(''));
  for (const name of ['o200k_base', 'cl100k_base', 'llama3']) {
    it(`holds at every cut after a letter for random text (${name})`, async () => {
      const tokenizer = await getTokenizer(name);
      expect(tokenizer.additiveAfterLetters).toBe(true);
      fc.assert(
        fc.property(text, text, (left, right) => {
          const joined = left + right;
          // Every cut the rule allows inside the joined text, not only the one between the two. (Left
          // out \p{M} or the apostrophe, this fails for o200k: "क|ि", "don|'t".)
          const cuts = joined.split(AFTER_LETTER);
          const sum = cuts.reduce((total, piece) => total + tokenizer.count(piece), 0);
          expect(sum, JSON.stringify(cuts)).toBe(tokenizer.count(joined));
        }),
        { numRuns: 400, seed: name.length },
      );
    });
  }
});
