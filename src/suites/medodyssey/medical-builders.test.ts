import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sample } from '../../core/sample.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import { buildMedicalSamples } from './build-medical-samples.js';
import { loadPromptTemplates } from './medical-prompts.js';
import {
  loadCaseSource,
  loadKgSource,
  loadMedicalSources,
  loadTableSource,
  loadTermSource,
  type MedicalSource,
} from './medical-sources.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-sources-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

const prompts = loadPromptTemplates(
  join(import.meta.dirname, '..', '..', '..', 'samples', 'medodyssey-sources', 'prompt.json'),
);

const heads = [
  'Aspirin',
  'Metformin',
  'Warfarin',
  'Insulin',
  'Heparin',
  'Ibuprofen',
  'Lisinopril',
  'Atorvastatin',
];
const relations = ['treats', 'may cause', 'interacts with'];
const tails = [
  'pain',
  'diabetes',
  'bleeding',
  'hypoglycemia',
  'thrombosis',
  'nausea',
  'hypertension',
  'myalgia',
  'fever',
];
const tripletLines = heads.flatMap((head, h) =>
  relations.flatMap((relation, r) =>
    tails.filter((_, t) => (h + r + t) % 3 === 0).map((tail) => `${head}|${relation}|${tail}`),
  ),
);
const kgPath = file('kg.en.txt', tripletLines.join('\n'));
const termbase = file(
  'termbase.en.txt',
  ['Diplopia', 'Dyspnea', 'Hypertension', 'Myalgia', 'Pyrexia', 'Pruritus', 'Syncope', 'Vertigo'].join('\n'),
);
const mentions = file(
  'mentions.en.tsv',
  'double vision\tDiplopia\nshortness of breath\tDyspnea\nfainting\tSyncope\n',
);
const tables = file(
  'tables.zh.md',
  '| 疾病 | 治疗 |\n| --- | --- |\n| 心房颤动 | 抗凝 |\n\n| 检查 | 用途 |\n|---|---|\n| 心电图 | 诊断心律失常 |\n\n| 药物 | 剂量 |\n| --- | --- |\n| 阿司匹林 | 100mg |\n',
);
const tableQuestions = file(
  'table-questions.zh.jsonl',
  '{"table": 1, "question": "心电图用于什么？", "answers": ["诊断心律失常"]}\n',
);
const cases = file(
  'cases.zh.jsonl',
  [
    {
      text: '患者男，62岁，因“胸痛2小时”入院。诊断：急性心肌梗死。',
      questions: [{ question: '患者因何入院？', answers: ['胸痛2小时'] }],
    },
    {
      text: '患者女，25岁，因“发热3天”就诊。诊断：上呼吸道感染。',
      questions: [{ question: '诊断是什么？', answers: ['上呼吸道感染'], alternatives: [['上感']] }],
    },
    {
      text: '患者男，40岁，因“头痛1周”就诊。诊断：偏头痛。',
      questions: [{ question: '头痛多久？', answers: ['1周'] }],
    },
  ]
    .map((item) => JSON.stringify(item))
    .join('\n'),
);

function sources(): MedicalSource[] {
  return [
    loadKgSource({ path: kgPath, language: 'en', questions: 6, seed: 's' }),
    loadTermSource({ termbase, mentions, language: 'en' }),
    loadTableSource({ tables, questions: tableQuestions, language: 'zh' }),
    loadCaseSource({ path: cases, language: 'zh' }),
  ];
}

describe('KG, Term, Table and Case builders', () => {
  it('loads sources and generates KG questions whose gold is every matching triplet', () => {
    const [kg] = sources();
    expect(kg!.questions).toHaveLength(6);
    for (const question of kg!.questions) {
      const gold = (question.gold as { triplets: string[] }).triplets;
      expect(gold.length).toBeGreaterThan(0);
      expect(gold.every((triplet) => tripletLines.includes(triplet))).toBe(true);
    }
  });

  it('puts every answer unit in the context whole and exactly once, and shares questions across levels', async () => {
    const tokenizers = [await getTokenizer('o200k_base')];
    const samples = [
      ...buildMedicalSamples({
        prompts,
        sources: sources(),
        levels: [600, 900],
        mic: 'ratio',
        gamma: { en: 0.36, zh: 1.41 },
        tokenizers,
        seed: 's',
      }),
    ];
    const byLevel = (level: number) =>
      samples.filter((sample) => sample.params.level === level).map((sample) => sample.params.questionId);
    expect(byLevel(600)).toEqual(byLevel(900));
    for (const sample of samples) {
      const units: string[] =
        sample.task === 'kg'
          ? (sample.gold as { triplets: string[] }).triplets
          : sample.task === 'term'
            ? [(sample.gold as { answer: string }).answer]
            : [];
      for (const unit of units)
        expect(sample.prompt.split(`${unit}\n`).length - 1, `${sample.id} ${unit}`).toBe(1);
      if (sample.task === 'case' || sample.task === 'table') {
        for (const offset of sample.meta!.answerOffsets as number[]) expect(offset).toBeGreaterThan(0);
      }
      expect(sample.promptChars).toBeLessThanOrEqual(
        Math.floor(Number(sample.params.level) / (sample.params.language === 'zh' ? 1.41 : 0.36)),
      );
    }
  });

  it('respects the token budget of every tokenizer in exact mode, and the same seed gives the same samples', async () => {
    const tokenizers = [await getTokenizer('o200k_base'), await getTokenizer('llama3')];
    const build = () => [
      ...buildMedicalSamples({
        prompts,
        sources: sources().slice(0, 2),
        levels: [400],
        mic: 'exact',
        gamma: { en: 0.36, zh: 1.41 },
        tokenizers,
        seed: 's',
      }),
    ];
    const first: Sample[] = build();
    for (const sample of first) {
      for (const tokenizer of tokenizers) {
        expect(tokenizer.count(sample.prompt)).toBe(sample.promptTokens[tokenizer.name]);
        expect(sample.promptTokens[tokenizer.name]).toBeLessThanOrEqual(400);
      }
    }
    expect(JSON.stringify(build())).toBe(JSON.stringify(first));
  });

  it('reads a termbase grouped by category, and records the category as the sub-type', () => {
    const grouped = file('grouped.en.txt', 'symptom\tDiplopia\nsymptom\tDyspnea\nsign\tSyncope\n');
    const source = loadTermSource({ termbase: grouped, mentions, language: 'en' });
    expect(source.units).toEqual(['Diplopia', 'Dyspnea', 'Syncope']);
    expect(source.questions.map((question) => question.subtype)).toEqual(['symptom', 'symptom', 'sign']);
  });

  it('skips silently what MedOdyssey has no dataset of (en Table and Case), and names a real gap', () => {
    const samples = join(import.meta.dirname, '..', '..', '..', 'samples', 'medodyssey-sources');
    const load = (from: string) =>
      loadMedicalSources({
        folder: from,
        tasks: ['kg', 'term', 'table', 'case'],
        languages: ['en', 'zh'],
        kgQuestions: 2,
        seed: 's',
      });
    const all = load(samples);
    expect(all.skipped).toEqual([]);
    expect(all.sources.map((source) => `${source.task} ${source.language}`).sort()).toEqual([
      'case zh',
      'kg en',
      'kg zh',
      'table zh',
      'term en',
      'term zh',
    ]);
    const gappy = join(folder, 'gappy-sources');
    cpSync(samples, gappy, { recursive: true });
    rmSync(join(gappy, 'kg-triplets.en.txt'));
    rmSync(join(gappy, 'term-mentions.zh.tsv'));
    expect(load(gappy).skipped).toEqual([
      `kg en (missing ${join(gappy, 'kg-triplets.en.txt')})`,
      `term zh (missing ${join(gappy, 'term-mentions.zh.tsv')})`,
    ]);
  });

  it('names the file and line of bad sources', () => {
    const badTriplets = file('bad-kg.txt', 'A|treats|B\nA treats C\n');
    expect(() => loadKgSource({ path: badTriplets, language: 'en', questions: 1, seed: 's' })).toThrow(
      expect.objectContaining({ code: 'DATA_INVALID', message: expect.stringContaining('bad-kg.txt:2') }),
    );
    const badMentions = file('bad-mentions.tsv', 'double vision\tDiplopia\nitch\tItching\n');
    expect(() => loadTermSource({ termbase, mentions: badMentions, language: 'en' })).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(
          'bad-mentions.tsv:2: the standard term "Itching" is not in the termbase',
        ),
      }),
    );
    const notMarkdown = file(
      'bad-tables.md',
      '| a | b |\n| --- | --- |\n| 1 | 2 |\n\nJust a paragraph, no table.\n',
    );
    expect(() => loadTableSource({ tables: notMarkdown, questions: tableQuestions, language: 'zh' })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('bad-tables.md:5: not a markdown table') }),
    );
  });
});
