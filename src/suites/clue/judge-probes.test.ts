import { describe, expect, it } from 'vitest';
import { PADDING_SENTENCES, padAnswer, wordsOf } from './judge-probes.js';
import { judgeUserPrompt } from './judge-task.js';

const item = {
  input: 'Summarize: my mother has a cough, what treats it?',
  reference: 'What are the treatments for cough?',
  answer: 'What treats a cough in an older adult?',
};

describe('the swap probe', () => {
  it('puts the answer block before the reference block and keeps every other byte', () => {
    const plain = judgeUserPrompt(item);
    const swapped = judgeUserPrompt(item, { answerFirst: true });
    const reference = `<reference_answer>\n${item.reference}\n</reference_answer>`;
    const answer = `<answer_to_grade>\n${item.answer}\n</answer_to_grade>`;
    expect(plain.indexOf(reference)).toBeLessThan(plain.indexOf(answer));
    expect(swapped.indexOf(answer)).toBeLessThan(swapped.indexOf(reference));
    expect(swapped).toBe(plain.replace(`${reference}\n\n${answer}`, `${answer}\n\n${reference}`));
    expect(swapped.length).toBe(plain.length);
  });
});

describe('the padding probe', () => {
  const pad = (sampleId: string, factor = 2, reference = item.reference) =>
    padAnswer(item.answer, { sampleId, reference, factor })!;

  it('reaches the factor, overshooting by less than one sentence, and starts with the answer unchanged', () => {
    const longest = Math.max(...PADDING_SENTENCES.map((sentence) => sentence.length));
    for (const factor of [1.5, 2, 3]) {
      const padded = pad('meqsum/1', factor);
      expect(padded.startsWith(`${item.answer} `)).toBe(true);
      expect(padded.length).toBeGreaterThanOrEqual(factor * item.answer.length);
      expect(padded.length).toBeLessThan(factor * item.answer.length + longest + 1);
    }
  });

  it('is the same for the same item and differs between items', () => {
    expect(pad('meqsum/1')).toBe(pad('meqsum/1'));
    expect(pad('meqsum/1')).not.toBe(pad('meqsum/2'));
  });

  it('adds only the documented sentences, none sharing a word with the reference', () => {
    const reference = 'Kind thanks: what remaining treatments help? Nothing else.';
    const added = pad('meqsum/3', 4, reference).slice(item.answer.length + 1);
    const taken = wordsOf(reference);
    expect([...wordsOf(added)].filter((word) => taken.has(word))).toEqual([]);
    const sentences = added.match(/[^.]+\./g)!.map((sentence) => sentence.trim());
    expect(sentences.every((sentence) => PADDING_SENTENCES.includes(sentence))).toBe(true);
    // Those sharing a word (Kind regards, Remaining lines …, Nothing further added) are never drawn.
    expect(added).not.toMatch(/Kind|Remaining|Nothing|Thanks/);
  });

  it('gives no padding when every sentence shares a word with the reference', () => {
    expect(padAnswer('a', { sampleId: 's', reference: PADDING_SENTENCES.join(' '), factor: 2 })).toBeNull();
  });
});
