import { describe, expect, it } from 'vitest';
import type { Task } from '../../core/task.js';
import { caseAnswerFor, caseTask, kgTask, predictedItems, tableTask, termTask } from './medical-tasks.js';

const run = (task: Task, gold: unknown, rawOutput: string, mode: 'standard' | 'compat' = 'standard') =>
  task.score({ sample: { gold, params: {} }, rawOutput, mode });

describe('Term', () => {
  it('ESM compares case-insensitively; SSM looks for the term inside the parsed answer', () => {
    expect(run(termTask, { answer: 'Diplopia' }, '{"result": "diplopia"}').scores).toEqual({
      esm: 1,
      ssm: 1,
    });
    expect(run(termTask, { answer: 'Diplopia' }, '{"result": "Binocular diplopia"}').scores).toEqual({
      esm: 0,
      ssm: 1,
    });
    // SSM reads the parsed answer, not the raw output.
    expect(run(termTask, { answer: 'Diplopia' }, 'Diplopia! {"result": "double vision"}').scores).toEqual({
      esm: 0,
      ssm: 0,
    });
  });
});

describe('KG', () => {
  const gold = { triplets: ['鼻炎|相关药物|必畅', '鼻炎|相关药物|信龙', 'A|b|C'] };
  it('counts true and false positives and negatives on lower-cased, de-duplicated sets', () => {
    // predicted {必畅 (hit), a|b|c (hit after lower-casing, twice), 斯卫尔 (miss)}: tp 2, fp 1, fn 1
    const scored = run(
      kgTask,
      gold,
      '{"result": ["鼻炎|相关药物|必畅", "a|b|c", "A|B|C", "鼻炎|相关药物|斯卫尔"]}',
    );
    expect(scored.scores).toEqual({ tp: 2, fp: 1, fn: 1, ssm: 0 });
  });

  it('SSM needs every gold triplet in the raw output', () => {
    const raw = 'A|b|C, 鼻炎|相关药物|必畅 and 鼻炎|相关药物|信龙 — no JSON';
    expect(run(kgTask, gold, raw)).toMatchObject({
      status: 'bad_format',
      scores: { tp: 0, fp: 0, fn: 3, ssm: 1 },
    });
  });

  it('compat mode iterates a string answer character by character, as the published scorer did', () => {
    expect(predictedItems('abca', 'compat')).toEqual(['a', 'b', 'c']);
    expect(predictedItems('abca', 'standard')).toEqual(['abca']);
    // "a|b|c" as characters: {a, |, b, c}, none a gold triplet: tp 0, fp 4, fn 1.
    expect(run(kgTask, { triplets: ['a|b|c'] }, '{"result": "a|b|c"}', 'compat').scores).toMatchObject({
      tp: 0,
      fp: 4,
      fn: 1,
    });
    expect(run(kgTask, { triplets: ['a|b|c'] }, '{"result": "a|b|c"}').scores).toMatchObject({
      tp: 1,
      fp: 0,
      fn: 0,
    });
  });
});

describe('samples never answered (too_long, error)', () => {
  it('KG and Table count every distinct gold item as a false negative; accuracy tasks count 0', () => {
    // KG gold lower-cased and de-duplicated: {a|b|c, d|e|f} → fn 2 (the spec's GPT-4 En.KG rule: 54/114).
    const kg = { gold: { triplets: ['A|b|C', 'a|b|c', 'D|e|F'] }, params: {} };
    expect(kgTask.failedScores(kg)).toEqual({ tp: 0, fp: 0, fn: 2, ssm: 0 });
    // Table gold without spaces: {"1 mg" → "1mg", "1mg", "2mg"} → {1mg, 2mg} → fn 2.
    const table = { gold: { answers: ['1 mg', '1mg', '2mg'] }, params: {} };
    expect(tableTask.failedScores(table)).toEqual({ tp: 0, fp: 0, fn: 2, ssm: 0 });
    expect(termTask.failedScores({ gold: { answer: 'x' }, params: {} })).toEqual({ esm: 0, ssm: 0 });
  });
});

describe('Table', () => {
  it('de-duplicates the predictions before the join rule, as the published scorer took set() first', () => {
    // ["A、x", "A、x"] is one distinct item against two gold items: the gold joins to "A、x、B" → tp 0, fp 1, fn 1.
    // Without de-duplication it would be two items, no join: tp 1, fp 0, fn 1.
    expect(run(tableTask, { answers: ['A、x', 'B'] }, '{"result": ["A、x", "A、x"]}').scores).toEqual({
      tp: 0,
      fp: 1,
      fn: 1,
      ssm: 0,
    });
  });

  it('removes spaces, and joins several gold items when the model gave one', () => {
    // gold ["心电图", "超声 心动图"]; one predicted item "心电图，超声心动图": the first gold item holds no
    // separator, so no join: tp 0, fp 1, fn 2.
    expect(
      run(tableTask, { answers: ['心电图', '超声 心动图'] }, '{"result": ["心电图，超声心动图"]}').scores,
    ).toMatchObject({
      tp: 0,
      fp: 1,
      fn: 2,
    });
    // gold ["抗凝, 控制心率", "复律"]: "," occurs in the first item, so the gold becomes "抗凝, 控制心率,复律",
    // which without spaces equals the prediction: tp 1.
    expect(
      run(tableTask, { answers: ['抗凝, 控制心率', '复律'] }, '{"result": ["抗凝,控制心率,复律"]}').scores,
    ).toMatchObject({
      tp: 1,
      fp: 0,
      fn: 0,
    });
    expect(run(tableTask, { answers: ['A B', 'C'] }, '{"result": ["AB", "C"]}').scores).toMatchObject({
      tp: 2,
      fp: 0,
      fn: 0,
    });
  });

  it('SSM needs every gold string, as written, in the raw output', () => {
    expect(run(tableTask, { answers: ['心电图'] }, '答案是心电图').scores.ssm).toBe(1);
    expect(run(tableTask, { answers: ['心 电图'] }, '答案是心电图').scores.ssm).toBe(0);
  });
});

describe('Case', () => {
  const gold = { alternatives: [['少言，焦虑一周'], ['少言焦虑']] };
  it('joins a list answer with the separator of the alternative being compared', () => {
    expect(caseAnswerFor(['少言', '焦虑一周'], '少言，焦虑一周', 'standard')).toBe('少言，焦虑一周');
    expect(caseAnswerFor(['少言', '焦虑一周'], '少言焦虑', 'standard')).toBe('少言');
    expect(run(caseTask, gold, '{"result": ["少言", "焦虑一周"]}').scores).toEqual({ esm: 1, ssm: 0 });
    expect(run(caseTask, gold, '{"result": ["少言 焦虑"]}').scores).toEqual({ esm: 1, ssm: 0 });
    expect(run(caseTask, gold, '患者少言焦虑 {"result": []}').scores).toEqual({ esm: 0, ssm: 1 });
  });

  it("compat mode joins a string's characters with the alternative's separator", () => {
    expect(caseAnswerFor('少言焦虑', '少言，焦虑一周', 'compat')).toBe('少，言，焦，虑');
    expect(caseAnswerFor('少言焦虑', '少言焦虑', 'compat')).toBe('少言焦虑');
    expect(caseAnswerFor('少言焦虑', '少言焦虑', 'standard')).toBe('少言焦虑');
  });
});
