import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';

/** A one-sheet .xlsx with inline strings (the layout the MeQSum reader needs). */
export function xlsx(rows: string[][]): Uint8Array {
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

/**
 * Small files in each official CLUE format, written by medbench (not data from the releases):
 * MedNLI 6 pairs, MeQSum 5 rows (every question its own summary), Problem Summary 5 notes,
 * LongHealth 2 patients with one question each, MeDiSumQA 3 items, MeDiSumCode 3 letters
 * (MIMIC-style codes, without dots), an ICD-10-CM codes file and an MRCONSO.RRF.
 */
export function writeClueFixtures(folder: string): void {
  const labels = ['entailment', 'neutral', 'contradiction'];
  writeFileSync(
    join(folder, 'mli_test_v1.jsonl'),
    Array.from({ length: 6 }, (_, index) =>
      JSON.stringify({
        sentence1: `Premise ${index}.`,
        sentence2: `Hypothesis ${index}.`,
        gold_label: labels[index % 3],
        pairID: `p${index}`,
      }),
    ).join('\n'),
  );
  writeFileSync(
    join(folder, 'MeQSum_fixture.xlsx'),
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
    join(folder, 'BioNLP2023-1A-Test.csv'),
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
  writeFileSync(join(folder, 'benchmark_v5.json'), JSON.stringify({ p1: patient('p1'), p2: patient('p2') }));
  writeFileSync(
    join(folder, 'MeDiSumQA.json'),
    JSON.stringify(
      Array.from({ length: 3 }, (_, index) => ({
        discharge_summary: `You had pneumonia ${index}.`,
        Question: 'Why was I admitted?',
        Answer: `You had pneumonia ${index}.`,
      })),
    ),
  );
  writeFileSync(
    join(folder, 'MeDiSumCode.json'),
    JSON.stringify(
      Array.from({ length: 3 }, (_, index) => ({
        text: `Discharge ${index}: pneumonia.`,
        icd_codes: [{ code: 'J189' }, { code: index ? 'I10' : 'E119' }],
      })),
    ),
  );
  writeFileSync(
    join(folder, 'icd10cm_codes_2024.txt'),
    'E119    Type 2 diabetes mellitus without complications\nI10     Essential (primary) hypertension\nJ189    Pneumonia, unspecified organism\n',
  );
  const mrconso = (cui: string, name: string) =>
    `${cui}|ENG|P|L1|PF|S1|Y|A1||M1|D1|MSH|MH|D1|${name}|0|N|256|`;
  writeFileSync(
    join(folder, 'MRCONSO.RRF'),
    [mrconso('C0020538', 'Hypertension'), mrconso('C0011849', 'Diabetes'), mrconso('C0030193', 'Pain')].join(
      '\n',
    ),
  );
}
