import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textLeaks } from '../support/file-leaks.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { scriptedWriter } from '../support/medisumqa-writer.js';
import { SYNTHETIC_NOTES, writeMimicIvFixtures } from '../support/mimic-iv-fixtures.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';
import { runCli, temporaryHome } from './cli.js';

/**
 * `generate --redact` keeps no note, prompt or answer text in generate.sqlite, and
 * `generate medisumqa` asks for --bertscore-model only at the step that needs it.
 */
const scratch = temporaryHome();
const encoder = writeTinyOnnxModel({ hiddenStates: true });
let writer: LlmTestServer;
let discharge = '';

// Text of the synthetic notes (every note's own lines) and what the scripted model answers.
const NOTE_TEXT = [
  'You were admitted to the hospital because of high blood pressure.',
  'We started a new medicine, amlodipine.',
  'Fever, confusion',
  'Sepsis from a urinary source',
  'A new medicine was started.',
  'Why was the patient in hospital?',
];

beforeAll(async () => {
  writer = await startLlmTestServer({ fallback: scriptedWriter });
  discharge = writeMimicIvFixtures(join(scratch, 'mimic')).discharge;
});
afterAll(async () => {
  await writer.close();
  rmSync(scratch, { recursive: true, force: true });
});

const medisumqa = (home: string, out: string, ...extra: string[]) =>
  runCli([
    ...['--home', home, 'generate', 'medisumqa', '--discharge', discharge],
    ...['--model', `openai-compatible:writer@${writer.url}/v1`, '--out', out],
    ...['--example-note', '10000000-DS-1', '--top-k-qas', '3', '--bertscore-layer', '1', ...extra],
  ]);

/** Rows of a table in generate.sqlite. */
function count(home: string, sql: string): number {
  const database = new Database(join(home, 'generate.sqlite'), { readonly: true });
  try {
    return database.prepare(sql).pluck().get() as number;
  } finally {
    database.close();
  }
}

describe('generate --redact', () => {
  it('medisumqa: the same files, and no note, prompt or answer text in generate.sqlite; a re-run asks again', async () => {
    // The fixtures' note lines are what the test looks for: each is in the discharge file.
    const source = readFileSync(discharge, 'utf8');
    for (const text of NOTE_TEXT.slice(0, 4)) expect(source).toContain(text);
    expect(SYNTHETIC_NOTES.length).toBeGreaterThan(1);

    const plainHome = temporaryHome();
    const plainOut = join(scratch, 'plain', 'medisumqa.json');
    const plain = await medisumqa(plainHome, plainOut, '--bertscore-model', encoder);
    expect(plain.code).toBe(0);
    // Without --redact the store holds the notes: the check below can find them.
    expect(textLeaks(plainHome, NOTE_TEXT)).not.toEqual([]);

    const home = temporaryHome();
    const out = join(scratch, 'redacted', 'medisumqa.json');
    const sent = writer.requests.length;
    const redacted = await medisumqa(home, out, '--bertscore-model', encoder, '--redact');
    expect(redacted.stderr).not.toMatch(/error \[/);
    expect(redacted.code).toBe(0);
    expect(writer.requests.length - sent).toBe(22);
    // The files are the data and are the same; the store keeps none of their text.
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(plainOut, 'utf8'));
    expect(readFileSync(out.replace('.json', '.notes.jsonl'), 'utf8')).toBe(
      readFileSync(plainOut.replace('.json', '.notes.jsonl'), 'utf8'),
    );
    expect(textLeaks(home, NOTE_TEXT)).toEqual([]);
    expect(count(home, 'SELECT COUNT(*) FROM prompts')).toBe(0);
    expect(count(home, 'SELECT COUNT(*) FROM responses')).toBe(0);
    expect(count(home, 'SELECT COUNT(*) FROM results')).toBe(22);
    expect(
      count(
        home,
        'SELECT COUNT(*) FROM results WHERE raw_output IS NULL AND prompt_hash IS NULL AND redaction_json IS NOT NULL',
      ),
    ).toBe(22);

    // Nothing was kept to answer from: the same command asks the model again, and keeps no more.
    const again = await medisumqa(home, out, '--bertscore-model', encoder, '--redact', '--force');
    expect(again.code).toBe(0);
    expect(writer.requests.length - sent).toBe(44);
    expect(count(home, 'SELECT COUNT(*) FROM results')).toBe(22);
    expect(textLeaks(home, NOTE_TEXT)).toEqual([]);
    for (const folder of [home, plainHome]) rmSync(folder, { recursive: true, force: true });
  });

  it('queries: no document, prompt or answer text in generate.sqlite', async () => {
    const documents = join(scratch, 'documents.jsonl');
    const table = '| Drug | Adult dose |\n| --- | --- |\n| Quixotimab | 7 mg weekly |';
    writeFileSync(documents, `${JSON.stringify({ id: 'd1', text: table })}\n`);
    const example = join(scratch, 'example.md');
    writeFileSync(example, '| Cause | Findings |\n| --- | --- |\n| Angina | exertional pain |');
    const questions = await startLlmTestServer({
      fallback: () => ({
        kind: 'answer',
        text: JSON.stringify({
          table: 't',
          column: 'c',
          rows: ['Quixotimab'],
          question: 'Dose of Quixotimab?',
          answer: '7 mg',
        }),
      }),
    });
    const home = temporaryHome();
    try {
      const result = await runCli([
        ...['--home', home, 'generate', 'queries', '--documents', documents, '--example-table', example],
        ...['--model', `openai-compatible:writer@${questions.url}/v1`, '--language', 'en'],
        ...['--out', join(scratch, 'queries'), '--redact'],
      ]);
      expect(result.stderr).not.toMatch(/error \[/);
      expect(result.code).toBe(0);
      expect(readFileSync(join(scratch, 'queries', 'queries.jsonl'), 'utf8')).toContain(
        'Dose of Quixotimab?',
      );
      expect(textLeaks(home, ['Quixotimab', 'exertional pain', 'Dose of'])).toEqual([]);
      expect(count(home, 'SELECT COUNT(*) FROM results WHERE redaction_json IS NOT NULL')).toBe(1);
    } finally {
      await questions.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('generate medisumqa without --bertscore-model', () => {
  it("runs the model's steps and writes the notes, then stops: only post-processing needs it", async () => {
    const home = temporaryHome();
    const folder = join(scratch, 'no-bertscore');
    mkdirSync(folder, { recursive: true });
    const out = join(folder, 'medisumqa.json');
    const sent = writer.requests.length;
    const stopped = await medisumqa(home, out);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(
      /error \[USAGE\] Generated from 11 of \d+ discharge notes .*medisumqa\.json was not written: post_process_qas\.py's step, choosing the 3 pairs, needs --bertscore-model <folder>/,
    );
    expect(stopped.stderr).toMatch(/hint: Run the same command again with --bertscore-model <folder>/);
    expect(writer.requests.length - sent).toBe(22);
    expect(readFileSync(join(folder, 'medisumqa.notes.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(
      11,
    );
    expect(existsSync(out)).toBe(false);

    // With it: the answers come from the generation store, only the last step runs.
    const finished = await medisumqa(home, out, '--bertscore-model', encoder, '--force');
    expect(finished.stderr).not.toMatch(/error \[/);
    expect(finished.code).toBe(0);
    expect(writer.requests.length - sent).toBe(22);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    rmSync(home, { recursive: true, force: true });
  });
});
