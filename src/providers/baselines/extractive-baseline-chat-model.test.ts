import { describe, expect, it } from 'vitest';
import { ExtractiveBaselineChatModel } from './extractive-baseline-chat-model.js';

const model = new ExtractiveBaselineChatModel();
const ask = async (prompt: string) =>
  (
    await model.generate({
      messages: [{ role: 'user', content: prompt }],
      parameters: { temperature: 0, maxOutputTokens: 100 },
    })
  ).text;

describe('extractive baseline', () => {
  it('answers a string question with the BM25-best context sentence', async () => {
    const prompt = [
      'Answer in JSON: {"answer": "xxx"}.',
      'Context:',
      'Imatinib is a first-line therapy. The Dream Bar manager is Shuweng. Dasatinib is second-line.',
      'Question: Who is the manager of the Dream Bar?',
      'Answer: ',
    ].join('\n');
    expect(JSON.parse(await ask(prompt))).toEqual({ answer: 'The Dream Bar manager is Shuweng.' });
  });

  it('handles Chinese questions through character n-grams', async () => {
    const prompt = [
      '格式要求：{"答案": "xxx"}',
      '内容：',
      '黄精能老不饥。阿哈曾经炸毁了星穹列车。甘菊主头风。',
      '问题：谁曾经炸毁了星穹列车？',
      '答案：',
    ].join('\n');
    expect(JSON.parse(await ask(prompt))).toEqual({ 答案: '阿哈曾经炸毁了星穹列车。' });
  });

  it('answers a list question with the first number of each templated line', async () => {
    const prompt = [
      'Collect the counts: {"little_star": [x, x, x, ...]}',
      'Some text 12 about doses.',
      'The little star looked to a small area and counted 3 little penguins.',
      'More text.',
      'The little star looked to a small area and counted 1 little penguin.',
      'The little star looked to a small area and counted 7 little penguins, but found a mistake, this time 8.',
      'The little star looked to a small area and counted 2 little penguins.',
    ].join('\n');
    // Four lines open with "The little star … counted"; the dose line opens differently.
    // The correction-style line yields its first (wrong) number, 7.
    expect(JSON.parse(await ask(prompt))).toEqual({ little_star: [3, 1, 7, 2] });
  });
});
