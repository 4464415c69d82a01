import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { runCli, temporaryHome } from './cli.js';
import { storeSnapshot } from './store-snapshot.js';

// Fixtures in each official CLUE format, written by this test.
const data = mkdtempSync(join(tmpdir(), 'medbench-clue-'));
const home = temporaryHome();
let server: LlmTestServer;

function xlsx(rows: string[][]): Uint8Array {
  const cells = (row: string[], index: number) =>
    row
      .map(
        (text, column) =>
          `<c r="${String.fromCharCode(65 + column)}${index + 1}" t="inlineStr"><is><t>${text}</t></is></c>`,
      )
      .join('');
  const sheet = `<worksheet><sheetData>${rows.map((row, index) => `<row r="${index + 1}">${cells(row, index)}</row>`).join('')}</sheetData></worksheet>`;
  return zipSync({
    'xl/workbook.xml': strToU8(
      '<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    'xl/worksheets/sheet1.xml': strToU8(sheet),
  });
}

beforeAll(async () => {
  const labels = ['entailment', 'neutral', 'contradiction'];
  writeFileSync(
    join(data, 'mli_test_v1.jsonl'),
    Array.from({ length: 6 }, (_, index) =>
      JSON.stringify({
        sentence1: `Premise ${index}.`,
        sentence2: `Hypothesis ${index}.`,
        gold_label: labels[index % 3],
        pairID: `p${index}`,
      }),
    ).join('\n'),
  );
  // Every MeQSum question is its own summary: the unchanged-input baseline scores 100.
  writeFileSync(
    join(data, 'MeQSum_fixture.xlsx'),
    xlsx([
      ['File', 'CHQ', 'Summary'],
      ...Array.from({ length: 5 }, (_, index) => [
        `${index}.xml`,
        `Is drug ${index} safe?`,
        `Is drug ${index} safe?`,
      ]),
    ]),
  );
  writeFileSync(
    join(data, 'BioNLP2023-1A-Test.csv'),
    `File ID,Subjectives,Assessment,Summary\n${Array.from({ length: 5 }, (_, index) => `n${index},"Pain, ""severe"" ${index}",Hypertension and diabetes,Hypertension;Diabetes`).join('\n')}\n`,
  );
  const patient = (id: string) => ({
    texts: {
      [`${id}-d1`]: `Patient ${id} was treated with metformin.`,
      [`${id}-d2`]: `Patient ${id} had a fever.`,
    },
    questions: [
      {
        question: `Which drug did patient ${id} receive?`,
        answer_a: 'Metformin',
        answer_b: 'Insulin',
        answer_c: 'Aspirin',
        answer_d: 'Heparin',
        answer_e: 'None',
        correct: 'Metformin',
        answer_location: { [`${id}-d1`]: { start: [0], end: [10] } },
      },
    ],
  });
  writeFileSync(join(data, 'benchmark_v5.json'), JSON.stringify({ p1: patient('p1'), p2: patient('p2') }));
  writeFileSync(
    join(data, 'MeDiSumQA.json'),
    JSON.stringify(
      Array.from({ length: 3 }, (_, index) => ({
        discharge_summary: `You had pneumonia ${index}.`,
        Question: 'Why was I admitted?',
        Answer: `You had pneumonia ${index}.`,
      })),
    ),
  );
  writeFileSync(
    join(data, 'MeDiSumCode.json'),
    JSON.stringify(
      Array.from({ length: 3 }, (_, index) => ({
        text: `Discharge ${index}: pneumonia.`,
        icd_codes: [{ code: 'J18.9' }, { code: index ? 'I10' : 'E11.9' }],
      })),
    ),
  );
  writeFileSync(
    join(data, 'icd10cm_codes_2024.txt'),
    'E119    Type 2 diabetes mellitus without complications\nI10     Essential (primary) hypertension\nJ189    Pneumonia, unspecified organism\n',
  );
  const mrconso = (cui: string, name: string) =>
    `${cui}|ENG|P|L1|PF|S1|Y|A1||M1|D1|MSH|MH|D1|${name}|0|N|256|`;
  writeFileSync(
    join(data, 'MRCONSO.RRF'),
    [mrconso('C0020538', 'Hypertension'), mrconso('C0011849', 'Diabetes'), mrconso('C0030193', 'Pain')].join(
      '\n',
    ),
  );
  server = await startLlmTestServer((request) => {
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    const last = messages.at(-1)!.content;
    if (last.startsWith('SENTENCE_1')) return { kind: 'answer', text: 'ENTAILMENT' };
    if (last.includes('BEGIN DOCUMENTS'))
      return { kind: 'answer', text: 'The correct answer is A: Metformin.' };
    if (last.includes('Why was I admitted?')) return { kind: 'answer', text: 'Answer: You had pneumonia.' };
    if (last.includes('Discharge')) return { kind: 'answer', text: 'Codes: J18.9, I10' };
    return { kind: 'answer', text: 'Question: Is the drug safe?' };
  });
});
afterAll(async () => {
  await server.close();
  rmSync(data, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const resources = () => [
  '--umls',
  join(data, 'MRCONSO.RRF'),
  '--icd10',
  join(data, 'icd10cm_codes_2024.txt'),
];

describe('medbench run clue (built CLI)', () => {
  it('scores the baseline row: expected accuracies, unchanged input, input concepts, random dataset codes', async () => {
    const result = await runCli([
      '--home',
      home,
      'run',
      'clue',
      '--data',
      data,
      '--model',
      'baseline',
      '--python-compatible-shuffle',
      ...resources(),
    ]);
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    const report = JSON.parse((await runCli(['--home', home, 'report', '--suite', 'clue', '--json'])).stdout);
    const [baseline] = report.runs;
    expect(baseline.scores.mednli.accuracy).toBeCloseTo(100 / 3, 10);
    expect(baseline.scores.longhealth).toEqual({ task1: 20, task2: 20, task3: expect.closeTo(100 / 6, 10) });
    expect(baseline.scores.meqsum).toEqual({ rougeL: 100, rouge1: 100, rouge2: 100 });
    expect(baseline.scores.medisumqa.rougeL).toBe(100);
    // Problem Summary: input concepts {pain, hypertension, diabetes} against {hypertension, diabetes}: P 2/3, R 1, F1 0.8.
    expect(baseline.scores['problem-summary'].umls).toBeCloseTo(80, 10);
    // Random codes come from the dataset's own codes, all of which are valid.
    expect(baseline.scores.medisumcode.validCodes).toBe(100);
    expect(baseline.items).toMatchObject({
      mednli: 3,
      meqsum: 2,
      longhealth: 6,
      medisumqa: 2,
      medisumcode: 2,
    });
    expect(baseline.notComputed).toEqual({ bertscore: expect.stringContaining('--bertscore-model') });
  });

  it('adds BERTScore F1 with a local ONNX encoder', async () => {
    const bertHome = temporaryHome();
    try {
      const result = await runCli([
        '--home',
        bertHome,
        'run',
        'clue',
        '--data',
        data,
        '--model',
        'baseline',
        '--tasks',
        'meqsum,medisumqa',
        '--bertscore-model',
        writeTinyOnnxModel(),
      ]);
      expect(result.stderr).not.toMatch(/error \[/);
      expect(result.stderr).toMatch(/BERTScore \(.+\) for 4 items/);
      const [run] = JSON.parse(
        (await runCli(['--home', bertHome, 'report', '--suite', 'clue', '--json'])).stdout,
      ).runs;
      // The baseline returns the input unchanged for MeQSum, so candidate = reference: F1 = 1.
      expect(run.scores.meqsum.bertscore).toBeCloseTo(100, 6);
      expect(run.scores.medisumqa.bertscore).toBeGreaterThan(0);
      expect(run.notComputed.bertscore).toBeUndefined();
    } finally {
      rmSync(bertHome, { recursive: true, force: true });
    }
  });

  it('runs a chat model with the system prompt and shots as messages', async () => {
    const result = await runCli([
      '--home',
      home,
      'run',
      'clue',
      '--data',
      data,
      '--model',
      `openai-compatible:clinical@${server.url}/v1`,
      '--context-window',
      '8000',
      '--tokenizer',
      'o200k_base',
      ...resources(),
    ]);
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    const shapes = server.requests.map((request) =>
      (request.body.messages as Array<{ role: string }>).map((message) => message.role).join(','),
    );
    expect(
      shapes.filter((shape) => shape === 'system,user,assistant,user,assistant,user,assistant,user'),
    ).toHaveLength(3 + 2 + 2);
    expect(shapes.filter((shape) => shape === 'system,user,assistant,user')).toHaveLength(2 + 2);
    expect(shapes.filter((shape) => shape === 'system,user')).toHaveLength(6);
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--model', 'clinical'])).stdout,
    );
    const [model] = report.runs;
    expect(model.scores.mednli.accuracy).toBeCloseTo(100 / 3, 10);
    expect(model.scores.longhealth).toEqual({ task1: 100, task2: 100, task3: 0 });
    // "J18.9, I10" against {J189, I10} and {J189, E119}: EM F1 1 and 1/2 → 75.
    expect(model.scores.medisumcode.emF1).toBeCloseTo(75, 10);
    const text = (await runCli(['--home', home, 'report', '--suite', 'clue'])).stdout;
    expect(text).toMatch(/clinical\s+\d+\.\d\d\*/);
  });

  it('compares a model with the baseline (Figure 5) and plots level 1 against level 2 (Figure 4)', async () => {
    const json = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--base', 'baseline'])).stdout,
    );
    const [clinical] = json.base.differences;
    expect(clinical.label).toBe('clinical');
    expect(clinical.differences.mednli.accuracy).toBeCloseTo(0, 10);
    expect(clinical.differences.longhealth.task1).toBeCloseTo(80, 10);
    const html = join(home, 'clue.html');
    expect(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--html', html, '--base', 'baseline']))
        .code,
    ).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('CLUE: level 1 against level 2');
    expect(page).toContain('Difference from baseline');
  });

  it('reports missing task files and skips them; a malformed file is a clear error that stores nothing', async () => {
    const partial = mkdtempSync(join(tmpdir(), 'medbench-clue-partial-'));
    writeFileSync(
      join(partial, 'mli_test_v1.jsonl'),
      '{"sentence1": "a", "sentence2": "b", "gold_label": "entailment"}\n{"sentence1": "a", "sentence2": "b"}\n',
    );
    const before = storeSnapshot(home);
    const result = await runCli(['--home', home, 'run', 'clue', '--data', partial, '--model', 'baseline']);
    expect(result.stderr).toContain('skipped meqsum: no official file');
    expect(result.stderr).toContain('error [DATA_INVALID]');
    expect(result.stderr).toContain('mli_test_v1.jsonl:2');
    expect(result.code).toBe(1);
    expect(storeSnapshot(home)).toEqual(before);
    rmSync(partial, { recursive: true, force: true });
  });
});
