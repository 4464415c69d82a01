import { describe, expect, it } from 'vitest';
import { contentTokens, needleOverlap } from './needle-overlap.js';
import { tercilesOf } from './overlap-terciles.js';

// The sample release's needles (samples/medodyssey/dataset/task_data/needles), counted by hand.
describe('needle–question overlap (NoLiMa: ROUGE-1 precision of the question against the needle)', () => {
  it('counts the share of the English question content words found in the needle', () => {
    // who is the … on: stop words; lighthouse keeper marrow island all in the needle.
    expect(
      needleOverlap({
        needle: 'The lighthouse keeper on Marrow Island is a retired violinist named Odile Varga.',
        question: 'Who is the lighthouse keeper on Marrow Island?',
        language: 'en',
      }),
    ).toBe(1);
    // day kite festival brindle held: "day" is not in the needle (4/5).
    expect(
      needleOverlap({
        needle:
          'The annual kite festival in the town of Brindle is always held on the first Sunday of October.',
        question: 'On which day is the kite festival in Brindle held?',
        language: 'en',
      }),
    ).toBeCloseTo(4 / 5, 12);
    // much veltrazumab lower relapse rate solace 7 trial answer percentage: 7 of 10 ("38%" → 38).
    expect(
      needleOverlap({
        needle:
          'In the fictional SOLACE-7 trial, patients given veltrazumab had a 38% lower rate of relapse than patients given placebo.',
        question:
          'By how much did veltrazumab lower the relapse rate in the SOLACE-7 trial? (Answer with a percentage)',
        language: 'en',
      }),
    ).toBeCloseTo(7 / 10, 12);
    // often patients taking corvexin potassium checked: "often" missing (5/6).
    expect(
      needleOverlap({
        needle:
          'Dr. Amara Lindqvist recommends that patients taking the fictional drug corvexin have their potassium checked every two weeks.',
        question: 'How often should patients taking corvexin have their potassium checked?',
        language: 'en',
      }),
    ).toBeCloseTo(5 / 6, 12);
  });

  it('counts each question token at most as often as the needle has it, and 0 without content words', () => {
    expect(
      needleOverlap({ needle: 'kite festival', question: 'kite kite festival', language: 'en' }),
    ).toBeCloseTo(2 / 3, 12);
    expect(needleOverlap({ needle: 'anything', question: 'What is it?', language: 'en' })).toBe(0);
  });

  it('counts Chinese by Han character, function characters left out', () => {
    expect(contentTokens('青石镇的灯塔看守人叫什么名字？', 'zh')).toEqual([...'青石镇灯塔看守人叫名字']);
    // 10 of 11: 字 is not in the needle (名叫 holds 名 and 叫).
    expect(
      needleOverlap({
        needle: '青石镇的灯塔看守人是一位名叫林晚舟的退休小提琴手。',
        question: '青石镇的灯塔看守人叫什么名字？',
        language: 'zh',
      }),
    ).toBeCloseTo(10 / 11, 12);
    // 白鹭湖风筝节一天举行: 天 is missing (第一个 holds 一; 星期日 no 天): 9 of 10.
    expect(
      needleOverlap({
        needle: '白鹭湖风筝节每年都在十月的第一个星期日举行。',
        question: '白鹭湖风筝节在哪一天举行？',
        language: 'zh',
      }),
    ).toBeCloseTo(9 / 10, 12);
    expect(contentTokens('SOLACE-7试验的', 'zh')).toEqual(['solace', '7', '试', '验']);
  });
});

describe('overlap terciles', () => {
  it('cuts at the type-7 quantiles of 1/3 and 2/3', () => {
    const values = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6];
    const { cuts, terciles } = tercilesOf(values);
    expect(cuts[0]).toBeCloseTo(0.3 + (2 / 3) * 0.1, 12);
    expect(cuts[1]).toBeCloseTo(0.6 + (1 / 3) * 0.1, 12);
    expect(terciles).toEqual(['high', 'low', 'middle', 'low', 'high', 'low', 'high', 'middle', 'middle']);
  });

  it('puts a value at a cut point in the lower tercile', () => {
    // q(1/3) = 0, q(2/3) = 1/3: every 0 is low, no needle is middle.
    const { cuts, terciles } = tercilesOf([0, 1, 0, 0, 1, 0]);
    expect(cuts[0]).toBe(0);
    expect(cuts[1]).toBeCloseTo(1 / 3, 12);
    expect(terciles).toEqual(['low', 'high', 'low', 'low', 'high', 'low']);
  });
});
