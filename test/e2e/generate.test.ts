import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { writeMimicIvFixtures } from '../support/mimic-iv-fixtures.js';
import { runCli, temporaryHome } from './cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'medbench-generate-'));
const home = temporaryHome();
let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer(() => ({ kind: 'answer', text: 'I10, E119' }));
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

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
    const run = await runCli([
      '--home',
      home,
      'run',
      'clue',
      '--data',
      clueFolder,
      '--tasks',
      'medisumcode',
      '--model',
      `openai-compatible:coder@${server.url}/v1`,
      '--context-window',
      '8000',
      '--tokenizer',
      'o200k_base',
    ]);
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
