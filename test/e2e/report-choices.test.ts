import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { runCli, temporaryHome } from './cli.js';

const data = mkdtempSync(join(tmpdir(), 'medbench-clue-'));
const home = temporaryHome();

beforeAll(async () => {
  writeClueFixtures(data);
  const resources = ['--umls', join(data, 'MRCONSO.RRF'), '--icd10', join(data, 'icd10cm_codes_2024.txt')];
  const clueRun = ['run', 'clue', '--data', data, '--model', 'baseline', ...resources];
  const clue = await runCli(['--home', home, ...clueRun]);
  if (clue.code !== 0) throw new Error(`run clue failed: ${clue.stderr}`);
});
afterAll(() => {
  rmSync(data, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('medbench report: what the store holds when nothing matches (built CLI)', () => {
  it('after a CLUE-only run, `report` names the CLUE labels and --suite, not the demo', async () => {
    const result = await runCli(['--home', home, 'report']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No matching MedOdyssey runs');
    expect(result.stderr).toMatch(/The store holds:\n {4}CLUE \(--suite clue\): baseline\n/);
    expect(result.stderr).not.toContain('medbench demo');
  });

  it('a mistyped --model gets the label it stands for, and every suite is listed', async () => {
    const demo = await runCli(['--home', home, 'demo']);
    expect(demo.code).toBe(0);
    const result = await runCli(['--home', home, 'report', '--model', 'Baseline:Extractiv']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Did you mean "baseline:extractive"?');
    expect(result.stderr).toContain('MedOdyssey (--suite medodyssey): baseline:extractive');
    expect(result.stderr).toContain('CLUE (--suite clue): baseline');
  });

  it('refuses an unknown --base with a usage error naming the labels the report holds', async () => {
    const result = await runCli(['--home', home, 'report', '--suite', 'clue', '--base', 'nonexistent']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--base nonexistent: no CLUE run in this report is labelled "nonexistent".',
    );
    expect(result.stderr).toContain('Labels: baseline.');
    expect(result.stdout).toBe('');
    const typo = await runCli(['--home', home, 'report', '--suite', 'clue', '--base', 'basline']);
    expect(typo.stderr).toContain('Did you mean "baseline"?');
  });
});
