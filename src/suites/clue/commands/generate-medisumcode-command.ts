import { existsSync } from 'node:fs';
import { writeOutputFile } from '../../../compose/output-file.js';
import { numberOption, type SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import { MedbenchError } from '../../../core/errors.js';
import { formatMeDiSumCodeLines, generateMeDiSumCode } from '../generate-medisumcode.js';
import { shippedIcdTables } from '../icd-tables.js';

interface GenerateMeDiSumCodeCommandOptions {
  discharge: string;
  diagnosesIcd: string;
  out: string;
  maxExamples?: number;
  force?: boolean;
}

/**
 * `medbench generate medisumcode`: the MeDiSumCode set from the user's MIMIC-IV files, as the
 * authors' generation script builds it, written as that script writes it (JSON lines). Nothing
 * leaves this machine: the step needs no model.
 */
export async function generateMeDiSumCodeFile(
  options: GenerateMeDiSumCodeCommandOptions,
  output: CommandOutput,
): Promise<void> {
  // The script appends to its output file; appending a second set to a first is never wanted.
  if (existsSync(options.out) && !options.force)
    throw new MedbenchError({
      code: 'USAGE',
      message: `${options.out} exists`,
      hint: 'Give another --out, or --force to replace it.',
    });
  const { records, stats } = await generateMeDiSumCode({
    discharge: options.discharge,
    diagnoses: options.diagnosesIcd,
    ...(options.maxExamples !== undefined ? { maxExamples: options.maxExamples } : {}),
    tables: shippedIcdTables(),
    onPhase: (phase) => output.stderr(`${phase}…\n`),
  });
  writeOutputFile(options.out, formatMeDiSumCodeLines(records));
  const empty = records.filter((record) => record.icd_codes.length === 0).length;
  output.stderr(
    `Wrote ${records.length} of ${stats.notes} discharge notes (seed 44 shuffle) to ${options.out}: ` +
      `${stats.kept} codes kept; ${stats.icd9WithoutTarget} ICD-9 codes without an ICD-10-CM target and ` +
      `${stats.unknownToTable} codes unknown to the icd10 table dropped, as the script drops them` +
      `${empty > 0 ? `; ${empty} notes have no code left` : ''}.\n` +
      '  This file is MIMIC-derived: medbench treats it as restricted (approved endpoints only).\n',
  );
}

/** `medbench generate medisumcode`. */
export const generateMeDiSumCodeCommand: SuiteCommand = {
  verb: 'generate',
  name: 'medisumcode',
  description:
    'CLUE MeDiSumCode from MIMIC-IV (discharge notes + diagnoses), as data/MeDiSumCode/generate_code_dataset.py builds it',
  options: [
    {
      flags: '--discharge <file>',
      description: 'MIMIC-IV-Note note/discharge.csv (or .csv.gz)',
      required: true,
    },
    {
      flags: '--diagnoses-icd <file>',
      description: 'MIMIC-IV hosp/diagnoses_icd.csv (or .csv.gz)',
      required: true,
    },
    {
      flags: '--out <file>',
      description: 'JSON-lines file to write (name it medisumcode.json in your CLUE folder)',
      required: true,
    },
    {
      flags: '--max-examples <n>',
      description: 'notes kept after the seed-44 shuffle (default 500)',
      parse: numberOption('--max-examples', { min: 1 }),
    },
    { flags: '--force', description: 'replace --out if it exists' },
  ],
  run: ({ options }, { output }) =>
    generateMeDiSumCodeFile(options as unknown as GenerateMeDiSumCodeCommandOptions, output),
};
