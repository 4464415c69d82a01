import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from '../support/llm-test-server.js';
import { scriptedWriter, sentText } from '../support/medisumqa-writer.js';
import { writeMimicIvFixtures } from '../support/mimic-iv-fixtures.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { runCli, temporaryHome } from './cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'medbench-generate-'));
const home = temporaryHome();
let server: LlmTestServer;
let writer: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer({ fallback: () => ({ kind: 'answer', text: 'I10, E119' }) });
  writer = await startLlmTestServer({ fallback: scriptedWriter });
});
afterAll(async () => {
  await server.close();
  await writer.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const runClue = (folder: string, task: string, model: string, ...extra: string[]) =>
  runCli(['--home', home, 'run', 'clue', '--data', folder, '--tasks', task, '--model', model, ...extra]);

const generate = (discharge: string, diagnoses: string, out: string) =>
  runCli(['generate', 'medisumcode', '--discharge', discharge, '--diagnoses-icd', diagnoses, '--out', out]);

describe('medbench generate medisumcode (built CLI) on synthetic MIMIC-IV files', () => {
  it('writes the set from discharge.csv and diagnoses_icd.csv, and run clue scores a model on it', async () => {
    const files = writeMimicIvFixtures(join(scratch, 'mimic-iv'));
    const clueFolder = join(scratch, 'clue');
    const out = join(clueFolder, 'medisumcode.json');
    const generated = await generate(files.discharge, files.diagnoses, out);
    expect(generated.stderr).not.toMatch(/error \[/);
    expect(generated.code).toBe(0);
    expect(generated.stderr).toContain('Wrote 12 of 12 discharge notes');
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    expect(JSON.parse(lines[3]!)).toMatchObject({
      hadm_id: '20000001',
      icd_codes: [
        { code: 'I10', description: 'Essential (primary) hypertension' },
        { code: 'E119', description: 'Type 2 diabetes mellitus without complications' },
      ],
    });

    // A second run refuses to overwrite (the script would append a second set), and leaves the file.
    const again = await generate(files.discharge, files.diagnoses, out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/medisumcode\.json exists/);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(12);

    // No --icd10: the valid-code rate uses the icd10 package's table medbench ships.
    const run = await runClue(
      clueFolder,
      'medisumcode',
      `openai-compatible:coder@${server.url}/v1`,
      '--context-window',
      '8000',
      '--tokenizer',
      'o200k_base',
    );
    expect(run.stderr).not.toMatch(/error \[/);
    expect(run.code).toBe(0);
    const report = JSON.parse((await runCli(['--home', home, 'report', '--suite', 'clue', '--json'])).stdout);
    const [model] = report.runs;
    // One shot (20000006), eleven scored notes in the shuffle's order; the first scored (20000005,
    // no code left: gold [""]) counts twice (paper-2024), so means are over 12. "I10, E119" matches
    // 20000001 exactly: EM F1 = 1/12. By prefix, 20000001 scores 1 and 20000004 ({E11, Z79})
    // P = R = 1/2 → 1.5/12.
    expect(model.items.medisumcode).toBe(11);
    expect(model.scores.medisumcode.emF1).toBeCloseTo(100 / 12, 10);
    expect(model.scores.medisumcode.apF1).toBeCloseTo(150 / 12, 10);
    expect(model.scores.medisumcode.validCodes).toBe(100);
  });

  it('stops with a clear error on a file that is not MIMIC-IV’s, writing nothing', async () => {
    const broken = join(scratch, 'discharge-broken.csv');
    writeFileSync(broken, 'note_id,hadm_id\n1,2\n');
    const files = writeMimicIvFixtures(join(scratch, 'mimic-iv-2'));
    const out = join(scratch, 'never.json');
    const result = await generate(broken, files.diagnoses, out);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error \[DATA_INVALID\].*line 2 has 2 columns; a discharge note has 8/);
    expect(result.stderr).toMatch(/hint: Give MIMIC-IV-Note’s discharge\.csv/);
    expect(existsSync(out)).toBe(false);
  });
});

/** A config whose model "configured" is the writer at `url` with maxOutputTokens 300; its path. */
function configuredWriter(name: string, url: string): string {
  const config = join(scratch, name);
  const configured = { provider: 'openai-compatible', model: 'writer', maxOutputTokens: 300 };
  writeFileSync(
    config,
    JSON.stringify({ models: { configured: { ...configured, endpoints: [{ baseURL: `${url}/v1` }] } } }),
  );
  return config;
}

describe('medbench generate medisumqa (built CLI) with a scripted local model', () => {
  const encoder = writeTinyOnnxModel({ hiddenStates: true });
  const generate = (home: string, out: string, model: string, ...extra: string[]) =>
    runCli([
      '--home',
      home,
      'generate',
      'medisumqa',
      '--discharge',
      writeMimicIvFixtures(join(scratch, 'mimic-qa')).discharge,
      '--model',
      model,
      '--out',
      out,
      '--example-note',
      '10000000-DS-1',
      '--bertscore-model',
      encoder,
      '--bertscore-layer',
      '1',
      ...extra,
    ]);

  it("runs both steps, keeps the script's statements and questions, and run clue reads the result", async () => {
    const generationHome = temporaryHome();
    const clueFolder = join(scratch, 'clue-qa');
    const out = join(clueFolder, 'medisumqa.json');
    try {
      const result = await generate(
        generationHome,
        out,
        `openai-compatible:writer@${writer.url}/v1`,
        '--top-k-qas',
        '3',
      );
      expect(result.stderr).not.toMatch(/error \[/);
      expect(result.code).toBe(0);
      // Eleven notes say "You were admitted to the hospital" (20000003 does not): 11 × 2 requests.
      expect(writer.requests).toHaveLength(22);
      const first = writer.requests[0]!.body as { messages: Array<{ role: string; content: string }> };
      expect(first.messages.map((message) => message.role)).toEqual([
        'system',
        'user',
        'assistant',
        'user',
        'assistant',
      ]);
      // The example: note 10000000-DS-1's instructions, cut at "It was a pleasure".
      expect(first.messages[1]!.content).toBe(
        '\n--------------BEGIN DISCHARGE INSTRUCTIONS--------------\nDear Mr. ___,\n\nYou were admitted to the hospital because of high blood pressure.\nWe started a new medicine, amlodipine.\n\n--------------END DISCHARGE INSTRUCTIONS--------------',
      );
      expect(first.messages.at(-1)!.content).toBe('\nStatements:\n- ');
      const admitted = 'You were admitted to the hospital because of high blood pressure.';
      const questionPrompts = writer.requests
        .map((request) => (request.body as { messages: Array<{ content: string }> }).messages)
        .filter((messages) => messages[0]!.content.includes('formulate a question'))
        .map((messages) => messages.at(-2)!.content);
      expect(questionPrompts).toContain(`\nStatements:\n- ${admitted}\n- A new medicine was started.\n`);
      const notes = readFileSync(join(clueFolder, 'medisumqa.notes.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(notes).toHaveLength(11);
      const note1 = notes.find((note) => note.note_id === '10000000-DS-1');
      expect(note1.qas).toEqual([
        ['Why was the patient in hospital?', admitted],
        ['What changed in treatment?', 'A new medicine was started.'],
      ]);
      expect(note1.without_summary).not.toContain('Dear Mr.');
      expect(note1.with_summary).toContain('Dear Mr.');
      const chosen = readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(chosen).toHaveLength(3);
      // ROUGE-L of question against answer: "Why was the patient in hospital?" shares "the patient"
      // (2 of 6 and 2 of 8 tokens), "What changed in treatment?" nothing: the first pick is a
      // "What changed" pair (the first of them, sorts being stable).
      expect(chosen[0]).toMatchObject({
        Question: 'What changed in treatment?',
        Answer: 'A new medicine was started.',
      });
      expect(chosen[0].note_id).toBe(notes[0].note_id);

      // Again: every answer comes from the generation store, nothing is asked twice.
      const again = await generate(
        generationHome,
        out,
        `openai-compatible:writer@${writer.url}/v1`,
        '--top-k-qas',
        '3',
        '--force',
      );
      expect(again.code).toBe(0);
      expect(writer.requests).toHaveLength(22);

      const run = await runClue(clueFolder, 'medisumqa', 'baseline');
      expect(run.stderr).not.toMatch(/error \[/);
      expect(run.code).toBe(0);
    } finally {
      rmSync(generationHome, { recursive: true, force: true });
    }
  });

  it("sends the script's exact Llama 3 text to a /completions endpoint", async () => {
    const generationHome = temporaryHome();
    writer.requests.length = 0;
    try {
      const result = await generate(
        generationHome,
        join(scratch, 'completions', 'medisumqa.json'),
        `openai-compatible:writer@${writer.url}/v1`,
        '--completions',
        '--top-k-qas',
        '1',
        '--max-notes',
        '1',
      );
      expect(result.stderr).not.toMatch(/error \[/);
      const prompts = writer.requests.map((request) => (request.body as { prompt: string }).prompt);
      expect(prompts).toHaveLength(2);
      expect(
        prompts[0]!.startsWith(
          '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a highly skilled assistant',
        ),
      ).toBe(true);
      // Each message stripped by the template: the user turn starts at the dashes.
      expect(prompts[0]).toContain(
        '<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n--------------BEGIN DISCHARGE INSTRUCTIONS--------------\nDear Mr. ___,',
      );
      expect(
        prompts[0]!.endsWith(
          '--------------END DISCHARGE INSTRUCTIONS--------------<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n\nStatements:\n- ',
        ),
      ).toBe(true);
      expect(
        prompts[1]!.endsWith(
          '- A new medicine was started.<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n\nQuestion: ',
        ),
      ).toBe(true);
    } finally {
      rmSync(generationHome, { recursive: true, force: true });
    }
  });

  it("sends the script's stop sequences, and --max-output-tokens in place of its 1000", async () => {
    const generationHome = temporaryHome();
    writer.requests.length = 0;
    try {
      const ask = (folder: string, ...extra: string[]) =>
        generate(
          generationHome,
          join(scratch, folder, 'medisumqa.json'),
          `openai-compatible:writer@${writer.url}/v1`,
          '--top-k-qas',
          '1',
          '--max-notes',
          '1',
          ...extra,
        );
      const limited = await ask('limited', '--max-output-tokens', '50');
      expect(limited.stderr).not.toMatch(/error \[/);
      const sent = () => writer.requests.map((request) => [request.body.max_tokens, request.body.stop]);
      // generate_qas.py: max_new_tokens=1000 and these stop_sequences in both steps.
      const stop = ['<|start_header_id|>', '<|end_header_id|>', '<|eot_id|>', '<|im_end|>'];
      expect(sent()).toEqual([
        [50, stop],
        [50, stop],
      ]);
      // Another limit is another run: its answers are asked again, not taken from the 50-token run.
      writer.requests.length = 0;
      expect((await ask('longer', '--max-output-tokens', '60')).code).toBe(0);
      expect(sent()).toEqual([
        [60, stop],
        [60, stop],
      ]);
      writer.requests.length = 0;
      expect((await ask('scripts', '--completions')).code).toBe(0);
      expect(sent()).toEqual([
        [1000, stop],
        [1000, stop],
      ]);
      // Each run records the limit its requests were sent with, not the model's default of 500.
      const store = new Database(join(generationHome, 'generate.sqlite'), { readonly: true });
      const rows = store.prepare('SELECT parameters_json FROM runs').all() as Array<{
        parameters_json: string;
      }>;
      store.close();
      expect(new Set(rows.map((row) => JSON.parse(row.parameters_json).maxOutputTokens))).toEqual(
        new Set([50, 60, 1000]),
      );
      // The config's maxOutputTokens in place of the script's limit; the flag before the config's.
      const config = configuredWriter('limit-config.json', writer.url);
      const fromConfig = (folder: string, ...extra: string[]) =>
        generate(
          generationHome,
          join(scratch, folder, 'medisumqa.json'),
          'configured',
          '--config',
          config,
          ...extra,
        );
      writer.requests.length = 0;
      expect((await fromConfig('configured', '--top-k-qas', '1', '--max-notes', '1')).code).toBe(0);
      expect(sent()).toEqual([
        [300, stop],
        [300, stop],
      ]);
      writer.requests.length = 0;
      const flagged = await fromConfig(
        'flagged',
        '--top-k-qas',
        '1',
        '--max-notes',
        '1',
        '--max-output-tokens',
        '40',
      );
      expect(flagged.code).toBe(0);
      expect(sent()).toEqual([
        [40, stop],
        [40, stop],
      ]);
    } finally {
      rmSync(generationHome, { recursive: true, force: true });
    }
  });

  it('stops without writing when a note gets no answer, and the next run asks only what is missing', async () => {
    const flaky = await startLlmTestServer({ fallback: scriptedWriter });
    const generationHome = temporaryHome();
    const out = join(scratch, 'flaky', 'medisumqa.json');
    try {
      flaky.script.push(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 500 })));
      const model = `openai-compatible:writer@${flaky.url}/v1`;
      const failed = await generate(generationHome, out, model, '--top-k-qas', '2', '--max-retries', '0');
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /step 1 \(statements\): 3 of 11 requests have no answer.*nothing was written/,
      );
      expect(failed.stderr).toMatch(/hint: Run the same command again/);
      expect(existsSync(out)).toBe(false);
      expect(flaky.requests).toHaveLength(11);
      const resumed = await generate(generationHome, out, model, '--top-k-qas', '2', '--max-retries', '0');
      expect(resumed.stderr).not.toMatch(/error \[/);
      expect(resumed.code).toBe(0);
      // The three that failed, then step 2's eleven: nothing answered was asked again.
      expect(flaky.requests).toHaveLength(11 + 3 + 11);
      expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    } finally {
      await flaky.close();
      rmSync(generationHome, { recursive: true, force: true });
    }
  });

  // A server on a non-loopback address of this machine stands in for a remote service.
  const lan = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
  it.skipIf(!lan)('sends no MIMIC text to an endpoint not approved for it, and writes nothing', async () => {
    const remote = await startLlmTestServer({ fallback: scriptedWriter, host: lan! });
    const generationHome = temporaryHome();
    try {
      const out = join(scratch, 'refused', 'medisumqa.json');
      const result = await generate(
        generationHome,
        out,
        `openai-compatible:writer@${remote.url}/v1`,
        '--top-k-qas',
        '1',
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/error \[DATA_RESTRICTED\].*MIMIC-IV discharge notes/);
      expect(remote.connections).toBe(0);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(join(generationHome, 'generate.sqlite'))).toBe(false);
    } finally {
      await remote.close();
      rmSync(generationHome, { recursive: true, force: true });
    }
  });
});

describe('medbench generate queries (built CLI) with a scripted local model', () => {
  const tables: Record<string, string> = {
    'antibiotics.md':
      '| Drug | Adult dose |\n| --- | --- |\n| Amoxicillin | 500 mg every 8 hours |\n| Doxycycline | 100 mg twice daily |',
    'anemia.md':
      '| Finding | Suggests |\n| --- | --- |\n| Microcytosis | iron deficiency |\n| Macrocytosis | folate or B12 deficiency |',
    'fractures.md':
      '| Injury | Splint |\n| --- | --- |\n| Scaphoid fracture | thumb spica |\n| Boxer fracture | ulnar gutter |',
    'broken.md': '| Broken | Table |\n| --- | --- |\n| BROKEN | row |',
  };

  /** Answers with the prompt's JSON about the asked table's first row (not JSON for the broken one). */
  function scriptedQuestions(request: RecordedRequest) {
    const asked = sentText(request).split('[Table]').at(-1)!;
    const firstRow = asked
      .split('\n')
      .find((line) => /^\| (?!Drug|Finding|Injury|Broken|---)/.test(line.trim()));
    if (asked.includes('BROKEN')) return { kind: 'answer' as const, text: 'I cannot answer that.' };
    const cell = firstRow!.split('|')[1]!.trim();
    return {
      kind: 'answer' as const,
      text: `\`\`\`json\n${JSON.stringify({ table: 't', column: 'c', rows: [cell], question: `What about ${cell}?`, answer: 'a' })}\n\`\`\``,
    };
  }

  it('writes a MedEureka release of one query per document, and run medeureka evaluates a retriever on it', async () => {
    const questions = await startLlmTestServer({ fallback: scriptedQuestions });
    const documents = join(scratch, 'tables');
    const out = join(scratch, 'my-retrieval-set');
    const generationHome = temporaryHome();
    try {
      mkdirSync(documents, { recursive: true });
      for (const [name, text] of Object.entries(tables)) writeFileSync(join(documents, name), text);
      const example = join(scratch, 'example-table.md');
      writeFileSync(example, '| Cause | Findings |\n| --- | --- |\n| Angina | exertional pain |');
      const askQueries = (model: string, folder: string, ...extra: string[]) =>
        runCli([
          ...['--home', generationHome, 'generate', 'queries', '--documents', documents, '--model', model],
          ...['--example-table', example, '--language', 'en', '--out', folder, ...extra],
        ]);
      const result = await askQueries(`openai-compatible:writer@${questions.url}/v1`, out);
      expect(result.stderr).not.toMatch(/error \[/);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('3 queries from 4 documents (task Table_en)');
      expect(result.stderr).toContain('1 answers were not the JSON the prompt asks for');
      const prompt = sentText(questions.requests[0]!);
      expect(prompt).toContain('[Example table]\n     | Cause | Findings |');
      expect(prompt).toContain('"table":"Causes of chest pain"');
      const queries = readFileSync(join(out, 'queries.jsonl'), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(queries).toContainEqual({
        task: 'Table_en',
        query: 'What about Amoxicillin?',
        targets: [tables['antibiotics.md']],
      });
      expect(JSON.parse(readFileSync(join(out, 'corpus.json'), 'utf8')).Table_en).toHaveLength(4);
      // The recipe's limit, and --max-output-tokens in its place.
      expect(new Set(questions.requests.map((request) => request.body.max_tokens))).toEqual(new Set([2000]));
      const asked = questions.requests.length;
      const limited = await askQueries(
        `openai-compatible:writer@${questions.url}/v1`,
        join(scratch, 'limited-set'),
        '--max-output-tokens',
        '77',
      );
      expect(limited.code, limited.stderr).toBe(0);
      const resent = questions.requests.slice(asked).map((request) => request.body.max_tokens);
      expect(resent).toEqual([77, 77, 77, 77]);
      // The config's maxOutputTokens in place of the recipe's.
      const config = configuredWriter('queries-config.json', questions.url);
      const fromConfig = await askQueries('configured', join(scratch, 'configured-set'), '--config', config);
      expect(fromConfig.code, fromConfig.stderr).toBe(0);
      const configuredLimits = questions.requests.slice(asked + 4).map((request) => request.body.max_tokens);
      expect(configuredLimits).toEqual([300, 300, 300, 300]);

      const run = await runCli(['--home', home, 'run', 'medeureka', '--data', out, '--model', 'bm25']);
      expect(run.stderr).not.toMatch(/error \[/);
      expect(run.code).toBe(0);
      const report = JSON.parse(
        (await runCli(['--home', home, 'report', '--suite', 'medeureka', '--json'])).stdout,
      );
      const table = report.runs[0].datasets['Table II'];
      // Each question names a word found only in its own table: BM25 ranks it first.
      expect(table.queries).toBe(3);
      expect(table['mrr@1']).toBe(100);
    } finally {
      await questions.close();
      rmSync(generationHome, { recursive: true, force: true });
    }
  });
});
