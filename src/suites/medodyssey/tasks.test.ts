import { describe, expect, it } from 'vitest';
import { countingTask } from './counting-task.js';
import { niahTask } from './niah-task.js';

const en = { gold: { answers: ["'Ten Stonehearts'", 'Ten Stonehearts'] }, params: { language: 'en' } };
const zh = { gold: { answers: ['尿常规'] }, params: { language: 'zh' } };
const counting = { gold: { counts: [1, 2, 3] }, params: { language: 'en' } };

describe('NIAH scoring', () => {
  it('ESM: case-insensitive equality with any accepted answer (en)', () => {
    const scored = niahTask.score({
      sample: en,
      rawOutput: '{"answer": "ten stonehearts"}',
      mode: 'standard',
    });
    expect(scored).toMatchObject({ status: 'ok', parsed: 'ten stonehearts', scores: { esm: 1, ssm: 1 } });
    // The first accepted answer that matched, for the sample page.
    expect(scored.explanation?.matched).toEqual({ esm: 'Ten Stonehearts', ssm: 'Ten Stonehearts' });
  });

  it('ESM fails on extra words, SSM still finds the answer', () => {
    const scored = niahTask.score({
      sample: en,
      rawOutput: '{"answer": "The Ten Stonehearts team"}',
      mode: 'standard',
    });
    expect(scored.scores).toEqual({ esm: 0, ssm: 1 });
  });

  it('zh ignores U+0020 spaces but not full-width ones', () => {
    expect(
      niahTask.score({ sample: zh, rawOutput: '{"答案": "尿 常 规"}', mode: 'standard' }).scores.esm,
    ).toBe(1);
    expect(
      niahTask.score({ sample: zh, rawOutput: '{"答案": "尿\u3000常规"}', mode: 'standard' }).scores.esm,
    ).toBe(0);
  });

  it('bad format scores 0 on ESM, and SSM reads the raw text', () => {
    const scored = niahTask.score({ sample: en, rawOutput: 'It is Ten Stonehearts.', mode: 'standard' });
    expect(scored).toMatchObject({ status: 'bad_format', parsed: '', scores: { esm: 0, ssm: 1 } });
  });

  it('numbers compare through their string form', () => {
    const sample = { gold: { answers: ['15'] }, params: { language: 'en' } };
    expect(niahTask.score({ sample, rawOutput: '{"answer": 15}', mode: 'standard' }).scores.esm).toBe(1);
    expect(niahTask.score({ sample, rawOutput: '{"answer": 15}', mode: 'compat' }).scores.esm).toBe(1);
  });
});

describe('Counting scoring', () => {
  it('ESM needs the same numbers in the same order, with number types', () => {
    expect(
      countingTask.score({ sample: counting, rawOutput: '{"little_star": [1, 2, 3]}', mode: 'standard' })
        .scores,
    ).toEqual({
      esm: 1,
      ssm: 1,
    });
    expect(
      countingTask.score({ sample: counting, rawOutput: '{"little_star": [1, 3, 2]}', mode: 'standard' })
        .scores,
    ).toEqual({
      esm: 0,
      ssm: 0,
    });
    expect(
      countingTask.score({
        sample: counting,
        rawOutput: '{"little_star": ["1", "2", "3"]}',
        mode: 'standard',
      }).scores.esm,
    ).toBe(0);
  });

  it('SSM finds [1,2,3] in the raw output once spaces and newlines are gone', () => {
    const scored = countingTask.score({
      sample: counting,
      rawOutput: 'The counts are [1,\n 2, 3] and {"little_star": [1, 2]}',
      mode: 'standard',
    });
    expect(scored.scores).toEqual({ esm: 0, ssm: 1 });
  });

  it('a zh answer key is accepted', () => {
    expect(
      countingTask.score({ sample: counting, rawOutput: '{"小星星": [1,2,3]}', mode: 'standard' }).status,
    ).toBe('ok');
  });
});
