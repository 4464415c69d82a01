import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatTemplate,
  loadPromptTemplates,
  medicalPrompt,
  namedQuestion,
  unitName,
} from './medical-prompts.js';

describe('medical prompt templates', () => {
  const prompts = {
    path: 'test.json',
    templates: {
      zh_kg: '找出三元组。\n{output_format}\n\n三元组：\n{triplets}\n\n问题：\n{question}\n\n答案：\n',
      en_norm: 'Normalise {{literally}}.\n{output_format}\n\nPhrase:\n{mention}\n\nTerms:\n{concept_set}\n',
    },
  };

  it('fills the template as the authors did and splits it at the context', () => {
    // Hand-written: json.dumps({"result": ["xxx", "xxx", "…"]}, ensure_ascii=False).
    expect(medicalPrompt(prompts, 'kg', 'zh', '甲的乙是什么？')).toEqual({
      head: '找出三元组。\n{"result": ["xxx", "xxx", "…"]}\n\n三元组：\n',
      separator: '\n',
      tail: '\n\n问题：\n甲的乙是什么？\n\n答案：\n',
    });
    expect(medicalPrompt(prompts, 'term', 'en', 'double vision')).toEqual({
      head: 'Normalise {literally}.\n{"result": "xxx"}\n\nPhrase:\ndouble vision\n\nTerms:\n',
      separator: '\n',
      tail: '\n',
    });
  });

  it('names what is missing: a template, or a placeholder', () => {
    expect(() => medicalPrompt(prompts, 'table', 'zh', 'q')).toThrow(/test\.json has no "zh_table" template/);
    expect(() => formatTemplate('{nope}', { question: 'q' }, 'x')).toThrow(/unknown placeholder \{nope\}/);
  });

  it('prefixes Table and Case questions with the unit name of their title line', () => {
    expect(unitName('表格：心律失常的治疗\n| a | b |')).toBe('心律失常的治疗');
    expect(unitName('病例：急性心肌梗死\n基本信息：男')).toBe('急性心肌梗死');
    expect(unitName('| a | b |\n| --- | --- |')).toBeUndefined();
    expect(namedQuestion('table', 'zh', '心律失常的治疗', '首选治疗是什么？')).toBe(
      '在表格“心律失常的治疗”中，首选治疗是什么？',
    );
    expect(namedQuestion('case', 'zh', '急性心肌梗死', '主诉是什么？')).toBe(
      '在病例“急性心肌梗死”中，主诉是什么？',
    );
    expect(namedQuestion('case', 'zh', undefined, '主诉是什么？')).toBe('主诉是什么？');
  });
});

const shared = process.env.MEDBENCH_SHARED_DATA;
const releasePrompts = shared ? join(shared, 'medodyssey', 'prompt.json') : '';
describe.skipIf(!existsSync(releasePrompts))("the release's prompt.json, against Python's str.format", () => {
  it('fills all six templates exactly as Python does (typos and full-width colons kept)', () => {
    const prompts = loadPromptTemplates(releasePrompts);
    const cases = [
      ['zh_norm', 'term', 'zh', 'mention', 'concept_set', 'single'],
      ['en_norm', 'term', 'en', 'mention', 'concept_set', 'single'],
      ['zh_kg', 'kg', 'zh', 'question', 'triplets', 'list'],
      ['en_kg', 'kg', 'en', 'question', 'triplets', 'list'],
      ['zh_table', 'table', 'zh', 'question', 'tables', 'list'],
      ['zh_medcase', 'case', 'zh', 'question', 'medcases', 'list'],
    ] as const;
    // The reference: the authors' way, in Python — json.dumps(..., ensure_ascii=False) and str.format.
    const script = `
import json, sys
templates = json.load(open(sys.argv[1], encoding='utf-8'))
formats = {'single': json.dumps({'result': 'xxx'}, ensure_ascii=False),
           'list': json.dumps({'result': ['xxx', 'xxx', '…']}, ensure_ascii=False)}
out = {}
for key, question_slot, context_slot, shape in json.loads(sys.argv[2]):
    out[key] = templates[key].format(**{'output_format': formats[shape], question_slot: 'Q?', context_slot: '<<CONTEXT>>'})
sys.stdout.write(json.dumps(out, ensure_ascii=False))
`;
    const python = spawnSync(
      'python3',
      [
        '-c',
        script,
        releasePrompts,
        JSON.stringify(cases.map(([key, , , q, c, shape]) => [key, q, c, shape])),
      ],
      { encoding: 'utf8' },
    );
    expect(python.status, python.stderr).toBe(0);
    const expected = JSON.parse(python.stdout) as Record<string, string>;
    for (const [key, task, language] of cases) {
      const shape = medicalPrompt(prompts, task, language, 'Q?');
      expect(`${shape.head}<<CONTEXT>>${shape.tail}`, key).toBe(expected[key]);
    }
    expect(expected.en_kg).toContain('Quesiton：');
  });
});
