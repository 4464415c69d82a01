// Medical-task build speed: KG (en, zh), Term (en, zh), Table (zh) and Case (zh) at all seven
// levels from synthetic sources of 200,000 triplets and 50,000 terms per language (plus 5,000
// tables and 5,000 cases), in `exact` MIC for the given tokenizers, against one plain
// tokenization pass over every final prompt in the same process (target: at most 1.5×).
// Usage: npm run build && node bench/build-medical.js [questions per task] [tokenizers]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTokenizer } from '../dist/index.js';
import { buildMedicalSamples } from '../dist/suites/medodyssey/build-medical-samples.js';
import { loadPromptTemplates } from '../dist/suites/medodyssey/medical-prompts.js';
import { loadMedicalSources } from '../dist/suites/medodyssey/medical-sources.js';

const questions = Number(process.argv[2] ?? 20);
const tokenizers = [];
for (const name of (process.argv[3] ?? 'o200k_base').split(',')) tokenizers.push(await getTokenizer(name));
let state = 11;
const next = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296;
};
const pick = (list) => list[Math.floor(next() * list.length)];
const en =
  'acute chronic renal hepatic cardiac pulmonary gastric vascular lymph bone skin muscle nerve infection fibrosis edema ulcer'.split(
    ' ',
  );
const zh = '急性 慢性 肾 肝 心 肺 胃 血管 淋巴 骨 皮肤 肌肉 神经 感染 纤维化 水肿 溃疡'.split(' ');
const entity = (words, index) => `${pick(words)}${words === zh ? '' : ' '}${pick(words)}${index}`;
const folder = mkdtempSync(join(tmpdir(), 'medbench-bench-sources-'));
try {
  for (const [language, words, relations] of [
    ['en', en, ['treats', 'causes', 'is a', 'interacts with']],
    ['zh', zh, ['治疗', '导致', '属于', '相互作用']],
  ]) {
    const triplets = Array.from(
      { length: 200_000 },
      (_, index) =>
        `${entity(words, index % 20000)}|${pick(relations)}|${entity(words, (index * 7) % 20000)}`,
    );
    writeFileSync(join(folder, `kg-triplets.${language}.txt`), triplets.join('\n'));
    const terms = Array.from({ length: 50_000 }, (_, index) => `${entity(words, index)}`);
    writeFileSync(join(folder, `term-termbase.${language}.txt`), terms.join('\n'));
    writeFileSync(
      join(folder, `term-mentions.${language}.tsv`),
      Array.from({ length: questions }, (_, index) => `mention ${index}\t${terms[index * 97]}`).join('\n'),
    );
  }
  const table = (index) =>
    `| 项目${index} | 数值 |\n| --- | --- |\n${Array.from({ length: 6 }, (_, row) => `| ${pick(zh)}${row} | ${index * row} |`).join('\n')}`;
  writeFileSync(
    join(folder, 'table-tables.zh.md'),
    Array.from({ length: 5000 }, (_, index) => table(index)).join('\n\n'),
  );
  writeFileSync(
    join(folder, 'table-questions.zh.jsonl'),
    Array.from({ length: questions }, (_, index) =>
      JSON.stringify({ table: index * 31, question: `项目${index * 31}的数值？`, answers: ['0'] }),
    ).join('\n'),
  );
  writeFileSync(
    join(folder, 'case-cases.zh.jsonl'),
    Array.from({ length: 5000 }, (_, index) =>
      JSON.stringify({
        text: `病例${index}：患者因${pick(zh)}${pick(zh)}入院，诊断为${pick(zh)}${pick(zh)}病，给予治疗后好转出院。`,
        questions:
          index < questions
            ? [{ question: `病例${index}的诊断是什么？`, answers: ['x'] }]
            : [{ question: '?', answers: ['x'] }],
      }),
    ).join('\n'),
  );
  const started = performance.now();
  const { sources } = loadMedicalSources({
    folder,
    tasks: ['kg', 'term', 'table', 'case'],
    languages: ['en', 'zh'],
    kgQuestions: questions,
    seed: 'bench',
  });
  for (const source of sources) source.questions = source.questions.slice(0, questions);
  const prompts = [];
  // The sample sources' prompt.json (written for medbench): every task in both languages.
  const templates = loadPromptTemplates(
    join(import.meta.dirname, '..', 'samples', 'medodyssey-sources', 'prompt.json'),
  );
  for (const sample of buildMedicalSamples({
    prompts: templates,
    sources,
    levels: [4000, 8000, 16000, 32000, 64000, 128000, 200000],
    mic: 'exact',
    gamma: { en: 0.36, zh: 1.41 },
    tokenizers,
    seed: 'bench',
  })) {
    prompts.push(sample.prompt);
  }
  const buildSeconds = (performance.now() - started) / 1000;
  let countSeconds = 0;
  for (const prompt of prompts) {
    const before = performance.now();
    for (const tokenizer of tokenizers) tokenizer.count(prompt);
    countSeconds += (performance.now() - before) / 1000;
  }
  const characters = prompts.reduce((sum, prompt) => sum + prompt.length, 0);
  console.log(
    `samples ${prompts.length} (${(characters / 1e6).toFixed(1)} M prompt characters), tokenizers ${tokenizers.map((t) => t.name).join(' + ')}`,
  );
  console.log(
    `build (loading sources included) ${buildSeconds.toFixed(1)} s; plain tokenization pass ${countSeconds.toFixed(1)} s`,
  );
  console.log(`ratio build / tokenization pass: ${(buildSeconds / countSeconds).toFixed(3)} (target <= 1.5)`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
