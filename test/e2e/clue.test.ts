import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import {
  type Behaviour,
  type LlmTestServer,
  type RecordedRequest,
  startLlmTestServer,
} from '../support/llm-test-server.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { runCli, temporaryHome } from './cli.js';
import { storeSnapshot } from './store-snapshot.js';

// Fixtures in each official CLUE format, written by medbench (test/support/clue-fixtures.ts).
const data = mkdtempSync(join(tmpdir(), 'medbench-clue-'));
const home = temporaryHome();
let server: LlmTestServer;
let claudeServer: LlmTestServer;

/** A model that knows each CLUE task's answer (the same one behind each provider's server). */
function answerClue(request: RecordedRequest): Behaviour {
  const messages = request.body.messages as Array<{ role: string; content: string }>;
  // The model continues the answer prefill, so it answers without repeating it.
  const last = messages.filter((message) => message.role === 'user').at(-1)!.content;
  if (last.includes('SENTENCE_1')) return { kind: 'answer', text: 'ENTAILMENT' };
  if (last.includes('BEGIN DOCUMENTS'))
    return { kind: 'answer', text: 'The correct answer is A: Metformin.' };
  if (last.includes('Why was I admitted?')) return { kind: 'answer', text: 'You had pneumonia.' };
  if (last.includes('ICD-10 codes you found')) return { kind: 'answer', text: 'J18.9, I10' };
  if (last.includes('diagnoses and patient problems'))
    return { kind: 'answer', text: 'Hypertension, Diabetes' };
  return { kind: 'answer', text: 'Is the drug safe?' };
}

beforeAll(async () => {
  writeClueFixtures(data);
  server = await startLlmTestServer({ fallback: answerClue });
  claudeServer = await startLlmTestServer({ provider: 'anthropic', fallback: answerClue });
});
afterAll(async () => {
  await server.close();
  await claudeServer.close();
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
      ...resources(),
    ]);
    expect(result.stderr).not.toMatch(/error \[/);
    expect(result.code).toBe(0);
    const report = JSON.parse((await runCli(['--home', home, 'report', '--suite', 'clue', '--json'])).stdout);
    const [baseline] = report.runs;
    expect(baseline.scores.mednli.accuracy).toBeCloseTo(100 / 3, 10);
    expect(baseline.protocol).toEqual({ name: 'paper-2024', commit: 'fdb4ec7' });
    // Table 3's baseline row: 1/5 for sub-tasks 1 and 2, 1/6 for sub-task 3.
    expect(baseline.scores.longhealth).toEqual({ task1: 20, task2: 20, task3: expect.closeTo(100 / 6, 10) });
    expect(baseline.scores.meqsum).toEqual({ rougeL: 100, rouge1: 100, rouge2: 100 });
    expect(baseline.scores.medisumqa.rougeL).toBe(100);
    // Problem Summary: input concepts {pain, hypertension, diabetes} against {hypertension, diabetes}: P 2/3, R 1, F1 0.8.
    expect(baseline.scores['problem-summary'].umls).toBeCloseTo(80, 10);
    // Random codes come from the dataset's own codes, all of which are valid.
    expect(baseline.scores.medisumcode.validCodes).toBe(100);
    // LongHealth: 2 questions × (5 prompts of sub-task 1 + 10 of sub-tasks 2 and 3).
    expect(baseline.items).toMatchObject({
      mednli: 3,
      meqsum: 2,
      'problem-summary': 2,
      longhealth: 30,
      medisumqa: 2,
      medisumcode: 2,
    });
    expect(baseline.notComputed).toEqual({
      'meqsum.bertscore': expect.stringContaining('--bertscore-model allenai/scibert_scivocab_uncased='),
      'problem-summary.bertscore': expect.stringContaining('emilyalsentzer/Bio_ClinicalBERT'),
      'medisumqa.bertscore': expect.stringContaining('emilyalsentzer/Bio_ClinicalBERT'),
    });
    expect(baseline.umls).toContain("MRCONSO string matcher, not the paper's scispacy linker");
    // Each item keeps its prompt, as a model's run does: a judge and a reviewer read it (docs/judge.md).
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const meqsum = store.results(baseline.runId, { task: 'meqsum' });
      expect(meqsum).toHaveLength(2);
      for (const result of meqsum) expect(store.getPrompt(result.promptHash!)).toMatch(/\S/);
    } finally {
      store.close();
    }
  });

  it("adds BERTScore F1 with a local ONNX encoder at the protocol's layer (or the one asked for)", async () => {
    const bertHome = temporaryHome();
    try {
      const encoder = writeTinyOnnxModel({ hiddenStates: true });
      // The protocol reads SciBERT's layer 8 and Bio_ClinicalBERT's 9: this encoder has neither,
      // and that is an error before anything runs.
      const refused = await runCli([
        '--home',
        bertHome,
        'run',
        'clue',
        '--data',
        data,
        '--model',
        'baseline',
        '--tasks',
        'meqsum',
        '--bertscore-model',
        encoder,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/has no output "hidden_states\.8"/);
      expect(storeSnapshot(bertHome)).toBe('absent');
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
        `allenai/scibert_scivocab_uncased=${encoder}`,
        '--bertscore-model',
        `emilyalsentzer/Bio_ClinicalBERT=${encoder}`,
        '--bertscore-layer',
        '1',
      ]);
      expect(result.stderr).not.toMatch(/error \[/);
      expect(result.stderr).toContain('BERTScore meqsum: allenai/scibert_scivocab_uncased layer 1, 2 items');
      expect(result.stderr).toContain(
        'BERTScore medisumqa: emilyalsentzer/Bio_ClinicalBERT layer 1, 2 items',
      );
      const [run] = JSON.parse(
        (await runCli(['--home', bertHome, 'report', '--suite', 'clue', '--json'])).stdout,
      ).runs;
      // The baseline returns the input unchanged for MeQSum, so candidate = reference: F1 = 1.
      expect(run.scores.meqsum.bertscore).toBeCloseTo(100, 6);
      expect(run.scores.medisumqa.bertscore).toBeGreaterThan(0);
      // MeDiSumCode did not run, so its valid-code rate is not listed as missing.
      expect(run.notComputed).toEqual({ umls: expect.any(String) });
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
    const bodies = server.requests.map((request) => request.body as Record<string, unknown>);
    const shapes = bodies.map((body) =>
      (body.messages as Array<{ role: string }>).map((message) => message.role).join(','),
    );
    // paper-2024 with a system role: shots as turns; MeQSum, Problem Summary, MeDiSumQA and
    // MeDiSumCode end with the answer prefill, which vLLM is asked to continue.
    const threeShots = 'system,user,assistant,user,assistant,user,assistant,user';
    expect(shapes.filter((shape) => shape === threeShots)).toHaveLength(3); // MedNLI
    expect(shapes.filter((shape) => shape === `${threeShots},assistant`)).toHaveLength(2 + 2);
    expect(shapes.filter((shape) => shape === 'system,user,assistant,user,assistant')).toHaveLength(2 + 2);
    // LongHealth: a system message and the prompt. This tiny fixture's 30 items make 17 distinct
    // prompts (sub-task 3 with its two distractors repeats them): each is sent once, a repeat
    // waiting for its twin's answer even while that is on the wire.
    const longhealth = bodies.filter((body) => JSON.stringify(body.messages).includes('BEGIN DOCUMENTS'));
    expect(new Set(longhealth.map((body) => JSON.stringify(body.messages))).size).toBe(17);
    expect(longhealth).toHaveLength(17);
    expect(longhealth.every((body) => (body.messages as unknown[]).length === 2)).toBe(true);
    const prefilled = bodies.filter(
      (body) => (body.messages as Array<{ role: string }>).at(-1)!.role === 'assistant',
    );
    expect(
      prefilled.every((body) => body.continue_final_message === true && body.add_generation_prompt === false),
    ).toBe(true);
    // Per-task output limits and the scripts' truncation to the window minus them.
    const meqsum = bodies.find((body) => JSON.stringify(body.messages).includes('PATIENT INQUIRY'))!;
    expect(meqsum).toMatchObject({ max_tokens: 200, truncate_prompt_tokens: 8000 - 200 });
    const mednli = bodies.find((body) => JSON.stringify(body.messages).includes('SENTENCE_1'))!;
    expect(mednli).toMatchObject({ max_tokens: 20, truncate_prompt_tokens: 8000 - 200 });
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--model', 'clinical'])).stdout,
    );
    const [model] = report.runs;
    // Scored p3 (entailment), p4, p5: right, wrong, wrong; the first item counts twice → (1+1+0+0)/4.
    expect(model.scores.mednli.accuracy).toBe(50);
    expect(model.items.longhealth).toBe(30);
    expect(model.scores.longhealth).toEqual({ task1: 100, task2: 100, task3: 0 });
    // "J18.9, I10" → [J189, I10] against [J189, I10] for both scored letters.
    expect(model.scores.medisumcode.emF1).toBe(100);
    const text = (await runCli(['--home', home, 'report', '--suite', 'clue'])).stdout;
    expect(text).toMatch(/clinical\s+\d+\.\d\d\*/);
    expect(text).toContain("clinical: protocol paper-2024 (the authors' scripts at commit fdb4ec7)");
  });

  it('warns of a left-out prefill only where a prompt has one, giving why: Claude thinking refuses it', async () => {
    const config = join(data, 'thinking-config.json');
    const claude = { provider: 'anthropic', model: 'claude-sonnet-4', thinkingBudget: 1024 };
    writeFileSync(
      config,
      JSON.stringify({
        models: {
          thinking: { ...claude, endpoints: [{ baseURL: claudeServer.url, apiKeyEnv: 'CLAUDE_KEY' }] },
        },
      }),
    );
    const thinkingHome = temporaryHome();
    const runTasks = (tasks: string) =>
      runCli(
        [
          '--home',
          thinkingHome,
          'run',
          'clue',
          '--data',
          data,
          '--model',
          'thinking',
          '--config',
          config,
          '--tasks',
          tasks,
        ],
        { CLAUDE_KEY: 'sk-ant-test' },
      );
    try {
      // MedNLI's prompts have no prefill: nothing differs from the protocol's.
      const mednli = await runTasks('mednli');
      expect(mednli.code, mednli.stderr).toBe(0);
      expect(mednli.stderr).not.toMatch(/prefill/i);
      const meqsum = await runTasks('meqsum');
      expect(meqsum.code, meqsum.stderr).toBe(0);
      expect(meqsum.stderr).toContain(
        "warning: the answer prefill of 2 of 2 prompts (meqsum) is left out: Anthropic's API refuses a prefilled answer while extended thinking is on (thinkingBudget), so those prompts differ from the protocol's.",
      );
      // A CLUE run keeps its generation settings apart (under `generation`); reports list them too.
      const report = await runCli(['--home', thinkingHome, 'report', '--suite', 'clue', '--json']);
      const { settings } = JSON.parse(report.stdout) as { settings: Array<{ settings: object }> };
      expect(settings.map((run) => run.settings)).toEqual([
        expect.objectContaining({ thinkingBudget: 1024, temperature: 1 }),
        expect.objectContaining({ thinkingBudget: 1024, temperature: 1 }),
      ]);
    } finally {
      rmSync(thinkingHome, { recursive: true, force: true });
    }
  });

  it('repo-2025: the seed-1 order, a system message, no prefill, the 2025 limits', async () => {
    const before = server.requests.length;
    const result = await runCli([
      '--home',
      home,
      'run',
      'clue',
      '--data',
      data,
      '--model',
      `openai-compatible:clinical@${server.url}/v1`,
      '--label',
      'clinical-2025',
      '--protocol',
      'repo-2025',
      '--context-window',
      '8000',
      '--tokenizer',
      'o200k_base',
      '--tasks',
      'mednli,meqsum',
    ]);
    expect(result.stderr).not.toMatch(/error \[/);
    const bodies = server.requests.slice(before).map((request) => request.body as Record<string, unknown>);
    expect(bodies).toHaveLength(3 + 2);
    expect(
      bodies.every(
        (body) => body.continue_final_message === undefined && body.truncate_prompt_tokens === undefined,
      ),
    ).toBe(true);
    expect(bodies.find((body) => JSON.stringify(body.messages).includes('PATIENT INQUIRY'))).toMatchObject({
      max_tokens: 512,
    });
    const [model] = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--model', 'clinical-2025']))
        .stdout,
    ).runs;
    expect(model.protocol).toEqual({ name: 'repo-2025', commit: '2de4314' });
    // Scored in seed-1 order: p0 (entailment), p4, p1 → right, wrong, wrong; repo-2025's MedNLI still uses
    // utils.update_results, so the first counts twice → 50.
    expect(model.scores.mednli.accuracy).toBe(50);
  });

  it('compares a model with the baseline (Figure 5) and plots level 1 against level 2 (Figure 4)', async () => {
    const json = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--base', 'baseline'])).stdout,
    );
    const clinical = json.base.differences.find(
      (difference: { label: string }) => difference.label === 'clinical',
    );
    expect(clinical.differences.mednli.accuracy).toBeCloseTo(50 - 100 / 3, 10);
    expect(clinical.differences.longhealth.task1).toBeCloseTo(80, 10);
    // medbench compare pairs the same items and takes plain means of each task's primary metric:
    // MedNLI 1 of 3 right for both (the report's 50 counts the clinical run's first item twice, as the
    // published code does), LongHealth's 30 prompts resampled as its 2 patients.
    const compared = JSON.parse(
      (await runCli(['--home', home, 'compare', 'baseline', 'clinical', '--json'])).stdout,
    ) as { tasks: Array<{ task: string; a: number; b: number; n: number; units: number }> };
    const task = (name: string) => compared.tasks.find((entry) => entry.task === name)!;
    expect(task('mednli')).toMatchObject({ n: 3, units: 3, a: 1 / 3, b: 1 / 3 });
    expect(task('longhealth')).toMatchObject({ n: 30, units: 2 });
    const html = join(home, 'clue.html');
    expect(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--html', html, '--base', 'baseline']))
        .code,
    ).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('CLUE: level 1 against level 2');
    expect(page).toContain('Difference from baseline');
  });

  it('tells runs under one label apart by their protocol, and lists only the missing metrics of tasks run', async () => {
    const labelHome = temporaryHome();
    try {
      for (const protocol of ['paper-2024', 'repo-2025']) {
        const args = ['--home', labelHome, 'run', 'clue', '--data', data, '--model', 'baseline'];
        expect((await runCli([...args, '--tasks', 'meqsum', '--protocol', protocol])).code).toBe(0);
      }
      const named = ['--home', labelHome, 'run', 'clue', '--data', data, '--model', 'baseline'];
      expect((await runCli([...named, '--tasks', 'mednli', '--label', 'copy-input'])).code).toBe(0);
      const { runs } = JSON.parse(
        (await runCli(['--home', labelHome, 'report', '--suite', 'clue', '--json'])).stdout,
      );
      expect(runs.map((run: { label: string }) => run.label).sort()).toEqual([
        'baseline (paper-2024)',
        'baseline (repo-2025)',
        'copy-input',
      ]);
      const meqsumOnly = runs.find((run: { label: string }) => run.label === 'baseline (repo-2025)');
      expect(Object.keys(meqsumOnly.notComputed)).toEqual(['meqsum.bertscore']);
      const mednliOnly = runs.find((run: { label: string }) => run.label === 'copy-input');
      expect(mednliOnly.notComputed).toEqual({});
    } finally {
      rmSync(labelHome, { recursive: true, force: true });
    }
  });

  it('refuses LongHealth for a model whose tokenizer cannot cut text, naming the ones that can', async () => {
    const emptyHome = temporaryHome();
    try {
      const base = ['--home', emptyHome, 'run', 'clue', '--data', data, '--tasks', 'longhealth,meqsum'];
      const unknown = await runCli([...base, '--model', `openai-compatible:mystery-model@${server.url}/v1`]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('medbench has no tokenizer for "mystery-model"');
      expect(unknown.stderr).toMatch(/--tokenizer o200k_base, cl100k_base, llama3 \(/);
      const countOnly = await runCli([
        ...base,
        '--model',
        `openai-compatible:mystery-model@${server.url}/v1`,
        '--tokenizer',
        'claude-legacy',
      ]);
      expect(countOnly.code).toBe(1);
      expect(countOnly.stderr).toContain('"claude-legacy" only counts tokens');
      expect(storeSnapshot(emptyHome)).toBe('absent');
    } finally {
      rmSync(emptyHome, { recursive: true, force: true });
    }
  });

  it('takes UMLS F1 from entity sets computed elsewhere (e.g. scispacy), and says so', async () => {
    const [clinical] = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--model', 'clinical'])).stdout,
    ).runs;
    const texts = join(data, 'umls-texts.jsonl');
    const exported = await runCli([
      '--home',
      home,
      'export',
      'clue-umls-texts',
      '--run',
      clinical.runId,
      '--out',
      texts,
    ]);
    expect(exported.stdout).toContain('Wrote 4 items');
    const items = readFileSync(texts, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; prediction: string; reference: string });
    expect(items.map((item) => item.id).sort()).toEqual([
      'medisumqa/item-0',
      'medisumqa/item-2',
      'problem-summary/n3',
      'problem-summary/n4',
    ]);
    // A linker's sets, written by hand: Problem Summary items match fully, MeDiSumQA half (P 1, R 1/2).
    const entities = join(data, 'umls-entities.jsonl');
    writeFileSync(
      entities,
      items
        .map((item) =>
          JSON.stringify({
            id: item.id,
            prediction: item.id.startsWith('problem') ? ['Hypertensive disease', 'Diabetes'] : ['Pneumonia'],
            reference: item.id.startsWith('problem')
              ? ['Hypertensive disease', 'Diabetes']
              : ['Pneumonia', 'Admission'],
          }),
        )
        .join('\n'),
    );
    const rescored = await runCli([
      '--home',
      home,
      'rescore',
      'clue',
      '--run',
      clinical.runId,
      '--umls-entities',
      entities,
    ]);
    expect(rescored.stderr).toBe('');
    const [after] = JSON.parse(
      (await runCli(['--home', home, 'report', '--suite', 'clue', '--json', '--model', 'clinical'])).stdout,
    ).runs;
    expect(after.scores['problem-summary'].umls).toBe(100);
    expect(after.scores.medisumqa.umls).toBeCloseTo((100 * 2) / 3, 10);
    expect(after.umls).toContain('entity sets from');
    // A file that misses an item changes nothing.
    writeFileSync(entities, JSON.stringify({ id: items[0]!.id, prediction: [], reference: [] }));
    const before = storeSnapshot(home);
    const refused = await runCli([
      '--home',
      home,
      'rescore',
      'clue',
      '--run',
      clinical.runId,
      '--umls-entities',
      entities,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('3 of the 4 items');
    expect(storeSnapshot(home)).toEqual(before);
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
