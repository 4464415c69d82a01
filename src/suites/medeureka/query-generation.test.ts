import { describe, expect, it } from 'vitest';
import { generatedRelease, parseGeneratedQuery, pythonFormat, tableQueryPrompt } from './query-generation.js';

describe("MedEureka's query-generation prompt", () => {
  it('fills slots as str.format does: doubled braces are braces, values are not read again', () => {
    expect(pythonFormat('{{"a": {x}}}', { x: '{y}' })).toBe('{"a": {y}}');
    expect(() => pythonFormat('{missing}', {})).toThrow(/no value for the slot \{missing\}/);
  });

  it("is Figure C11's text with the example table, the paper's example output and the table asked about", () => {
    const prompt = tableQueryPrompt({
      language: 'zh',
      exampleTable: '| 病因 | 表现 |',
      table: '| 药物 | 剂量 |',
    });
    expect(
      prompt.startsWith('        我将给你一份来源于专业医学诊疗手册的表格。首先我需要你理解该表格的空间布局'),
    ).toBe(true);
    expect(prompt).toContain('    答案: 根据问题以及单元格内容生成的回答\n\n====');
    expect(prompt).toContain(
      '【示例表格】\n     | 病因 | 表现 |\n\n【示例输出】\n```json\n    {\n        "表名":"胸痛的病因",\n',
    );
    expect(prompt).toContain('这些特征可以帮助区分这三种病因。"\n    }\n```\n');
    expect(prompt.endsWith('【表格】\n     | 药物 | 剂量 |\n\n【输出】')).toBe(true);
    const english = tableQueryPrompt({
      language: 'en',
      exampleTable: 'E',
      table: 'T',
      exampleOutput: '{"x": 1}',
    });
    expect(english).toContain('[Example output]\n```json\n{"x": 1}\n```');
    expect(english.endsWith('[Table]\n     T\n\n[Output]')).toBe(true);
  });
});

describe("the model's answer", () => {
  it('is read from a ```json block or a bare object, under Chinese or English keys', () => {
    const zh = '好的：\n```json\n{"表名":"T","列":"C","行":["a","b"],"问题":"Q?","答案":"A."}\n```';
    expect(parseGeneratedQuery(zh)).toEqual({
      table: 'T',
      column: 'C',
      rows: ['a', 'b'],
      question: 'Q?',
      answer: 'A.',
    });
    const en = 'Output: {"table":"T","column":"C","rows":["a"],"question":"Q?","answer":"A."} done';
    expect(parseGeneratedQuery(en)?.question).toBe('Q?');
    expect(parseGeneratedQuery('no json here')).toBeUndefined();
    expect(parseGeneratedQuery('{"表名":"T","列":"C","行":["a"],"问题":"","答案":"A"}')).toBeUndefined();
  });

  it('becomes a plain MedEureka release: queries with their document, every document in the corpus, a review file', () => {
    const files = generatedRelease('Table_en', [
      {
        document: { id: 'a.md', text: 'A' },
        output: 'raw a',
        query: { table: 't', column: 'c', rows: [], question: 'qa', answer: 'x' },
      },
      { document: { id: 'b.md', text: 'B' }, output: 'raw b', query: undefined },
    ]);
    expect(files['queries.jsonl']).toBe('{"task":"Table_en","query":"qa","targets":["A"]}\n');
    expect(files['corpus.json']).toBe('{"Table_en":["A","B"]}\n');
    expect(files['review.jsonl']!.split('\n')[1]).toBe(
      '{"document":"b.md","status":"unparsable","output":"raw b"}',
    );
  });
});
