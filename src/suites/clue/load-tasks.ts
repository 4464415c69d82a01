import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { parseJsonText, readTextFile } from '../../io/text-file.js';
import { loadMeQSum } from './meqsum.js';
import { parseCsv } from './parse-csv.js';

export interface MedNliItem {
  id: string;
  premise: string;
  hypothesis: string;
  label: 'entailment' | 'neutral' | 'contradiction';
}
export interface ProblemSummaryItem {
  id: string;
  subjective: string;
  assessment: string;
  /** The reference problems: every ";" of the file's Summary turned into ", ", as the scripts do (a trailing ";" too). */
  summary: string;
}
export interface LongHealthQuestion {
  id: string;
  patientId: string;
  question: string;
  /** answer_a … answer_e, in order. */
  options: Record<'a' | 'b' | 'c' | 'd' | 'e', string>;
  /** The text of the right answer (an option contains it). */
  correct: string;
  /** Documents holding the answer, in the file's order, with relative spans. */
  answerLocations: Record<string, { start: number[]; end: number[] }>;
}
export interface LongHealthData {
  /** patient id → document id → text, in the file's order */
  documents: Record<string, Record<string, string>>;
  questions: LongHealthQuestion[];
}
export interface MeDiSumQaItem {
  id: string;
  /** `discharge_summary` (the released form; repo-2025 reads it). */
  dischargeSummary: string | undefined;
  /** `without_discharge_summary` (the generation script's field; paper-2024 reads it). */
  withoutDischargeSummary: string | undefined;
  question: string;
  answer: string;
}
export interface MeDiSumCodeItem {
  id: string;
  text: string;
  codes: string[];
}

function fail(path: string, where: string, detail: string, hint?: string): never {
  throw new MedbenchError({
    code: 'DATA_INVALID',
    message: `${path}${where}: ${detail}`,
    ...(hint ? { hint } : {}),
  });
}

function readJson(path: string): unknown {
  try {
    return parseJsonText(readTextFile(path), path);
  } catch (error) {
    return fail(path, '', `not valid JSON (${(error as Error).message})`);
  }
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || '(root)'}: ${issue.message}`;
}

const mednliSchema = z.object({
  sentence1: z.string().min(1),
  sentence2: z.string().min(1),
  gold_label: z.enum(['entailment', 'neutral', 'contradiction']),
  pairID: z.string().optional(),
});

/** MedNLI `mli_test_v1.jsonl`: one pair per line. */
export function loadMedNli(path: string): MedNliItem[] {
  return readTextFile(path)
    .split('\n')
    .map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, line }) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        fail(path, `:${line}`, 'not valid JSON');
      }
      const parsed = mednliSchema.safeParse(value);
      if (!parsed.success)
        fail(
          path,
          `:${line}`,
          issueText(parsed.error),
          'Each line needs sentence1, sentence2 and gold_label (entailment, neutral or contradiction).',
        );
      return {
        id: parsed.data.pairID ?? `line-${line}`,
        premise: parsed.data.sentence1,
        hypothesis: parsed.data.sentence2,
        label: parsed.data.gold_label,
      };
    });
}

/** Problem Summary `BioNLP2023-1A-Test.csv`: Subjective (or Subjectives), Assessment, Summary. */
export function loadProblemSummary(path: string): ProblemSummaryItem[] {
  const [header, ...rows] = parseCsv(readTextFile(path));
  const names = (header?.fields ?? []).map((name) => name.trim());
  const column = (...candidates: string[]) => names.findIndex((name) => candidates.includes(name));
  const subjective = column('Subjective', 'Subjectives');
  const assessment = column('Assessment');
  const summary = column('Summary');
  if (subjective < 0 || assessment < 0 || summary < 0) {
    fail(
      path,
      ':1',
      `the header needs Subjective (or Subjectives), Assessment and Summary; found ${names.join(', ')}`,
    );
  }
  const fileId = column('File ID', 'File', 'ID');
  return rows.map(({ line, fields }) => {
    const item = {
      id: fileId >= 0 ? (fields[fileId] ?? `row-${line}`) : `row-${line}`,
      subjective: fields[subjective] ?? '',
      assessment: fields[assessment] ?? '',
      summary: (fields[summary] ?? '').replaceAll(';', ', '),
    };
    if (item.summary === '') fail(path, `:${line}`, 'empty Summary');
    if (`${item.subjective}${item.assessment}`.trim() === '')
      fail(path, `:${line}`, 'empty Subjective and Assessment');
    return item;
  });
}

const letters = ['a', 'b', 'c', 'd', 'e'] as const;
const longHealthSchema = z.record(
  z.string(),
  z.object({
    texts: z.record(z.string(), z.string()),
    questions: z.array(
      z.object({
        question: z.string().min(1),
        answer_a: z.string(),
        answer_b: z.string(),
        answer_c: z.string(),
        answer_d: z.string(),
        answer_e: z.string(),
        correct: z.string(),
        answer_location: z
          .record(z.string(), z.object({ start: z.array(z.number()), end: z.array(z.number()) }))
          .default({}),
      }),
    ),
  }),
);

/** LongHealth `benchmark_v5.json`: patients with documents and five-option questions. */
export function loadLongHealth(path: string): LongHealthData {
  const parsed = longHealthSchema.safeParse(readJson(path));
  if (!parsed.success) fail(path, '', issueText(parsed.error));
  const documents: LongHealthData['documents'] = {};
  const questions: LongHealthQuestion[] = [];
  for (const [patientId, patient] of Object.entries(parsed.data)) {
    documents[patientId] = patient.texts;
    patient.questions.forEach((item, index) => {
      const options = {
        a: item.answer_a,
        b: item.answer_b,
        c: item.answer_c,
        d: item.answer_d,
        e: item.answer_e,
      };
      if (!letters.some((letter) => options[letter].includes(item.correct)))
        fail(path, ` ${patientId}.questions.${index}`, '"correct" is in none of answer_a … answer_e');
      for (const documentId of Object.keys(item.answer_location)) {
        if (patient.texts[documentId] === undefined)
          fail(
            path,
            ` ${patientId}.questions.${index}.answer_location`,
            `document "${documentId}" is not among the patient's texts`,
          );
      }
      questions.push({
        id: `${patientId}-q${index}`,
        patientId,
        question: item.question,
        options,
        correct: item.correct,
        answerLocations: item.answer_location,
      });
    });
  }
  return { documents, questions };
}

/** A JSON list, or JSON lines (one object per line, as the generation script writes them). */
function readJsonListOrLines(path: string): unknown {
  const text = readTextFile(path);
  if (text.trimStart().startsWith('[')) return readJson(path);
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, number }) => {
      try {
        return JSON.parse(line);
      } catch (error) {
        return fail(path, `:${number}`, `not valid JSON (${(error as Error).message})`);
      }
    });
}

/**
 * MeDiSumQA: a JSON list (or JSON lines) of { discharge_summary and/or without_discharge_summary,
 * Question, Answer }.
 */
export function loadMeDiSumQa(path: string): MeDiSumQaItem[] {
  const parsed = z
    .array(
      z
        .object({
          discharge_summary: z.string().min(1).optional(),
          without_discharge_summary: z.string().min(1).optional(),
          Question: z.string().min(1),
          Answer: z.string().min(1),
        })
        .refine(
          (item) => item.discharge_summary !== undefined || item.without_discharge_summary !== undefined,
          {
            message: 'needs discharge_summary or without_discharge_summary',
          },
        ),
    )
    .safeParse(readJsonListOrLines(path));
  if (!parsed.success) fail(path, '', issueText(parsed.error));
  return parsed.data.map((item, index) => ({
    id: `item-${index}`,
    dischargeSummary: item.discharge_summary,
    withoutDischargeSummary: item.without_discharge_summary,
    question: item.Question,
    answer: item.Answer,
  }));
}

/**
 * MeDiSumCode: a JSON list of { text, icd_codes: [{ code }] }, or JSON lines of them as the
 * generation script writes them (`medbench generate medisumcode`). A note may be left with no
 * code (the script drops unmappable ones); the evaluation scores it against the empty string, as
 * `", ".join([]).split(", ")` does.
 */
export function loadMeDiSumCode(path: string): MeDiSumCodeItem[] {
  const parsed = z
    .array(
      z.object({
        text: z.string().min(1),
        icd_codes: z.array(z.object({ code: z.string().min(1) }).loose()),
      }),
    )
    .min(1)
    .safeParse(readJsonListOrLines(path));
  if (!parsed.success) fail(path, '', issueText(parsed.error));
  return parsed.data.map((item, index) => ({
    id: `item-${index}`,
    text: item.text,
    // As written: the scripts join them with ", " and split the gold list again.
    codes: item.icd_codes.map((code) => code.code),
  }));
}

/**
 * The official ICD-10-CM code table, as the valid set of the `icd10` package the scripts used
 * (which also accepts category codes such as E11). The CMS "order" file lists every code, headers
 * included, and is read as it is. The "codes" file lists only billable codes: each one's
 * three-character category is added (every category exists as a header), while other header
 * codes (e.g. E116) are not derivable from it — give the order file for the exact set.
 */
export function loadIcd10Codes(path: string): Set<string> {
  const codes = new Set<string>();
  readTextFile(path)
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      const order = /^\d{5} ([A-Z0-9]{3,7})\s+[01] /.exec(text);
      const plain = /^([A-Z][0-9][0-9A-Z]{1,5})\s/.exec(text);
      const code = order?.[1] ?? plain?.[1];
      if (!code) fail(path, `:${index + 1}`, 'not a line of the ICD-10-CM order or codes file');
      codes.add(code);
      if (!order) codes.add(code.slice(0, 3));
    });
  return codes;
}

export const CLUE_TASKS = [
  'mednli',
  'meqsum',
  'problem-summary',
  'longhealth',
  'medisumqa',
  'medisumcode',
] as const;
export type ClueTaskName = (typeof CLUE_TASKS)[number];

/**
 * The tasks built from MIMIC notes, which PhysioNet gives only to credentialed users under a
 * data-use agreement: MedNLI and Problem Summary (MIMIC-III), MeDiSumQA and MeDiSumCode
 * (MIMIC-IV discharge summaries). Their text goes only to endpoints approved for restricted data.
 */
export const MIMIC_DERIVED_TASKS: Readonly<Partial<Record<ClueTaskName, string>>> = {
  mednli: 'MedNLI (MIMIC-III)',
  'problem-summary': 'Problem Summary (MIMIC-III)',
  medisumqa: 'MeDiSumQA (MIMIC-IV)',
  medisumcode: 'MeDiSumCode (MIMIC-IV)',
};

const FILE_PATTERNS: Record<ClueTaskName, RegExp> = {
  mednli: /^mli_test.*\.jsonl$/i,
  meqsum: /^meqsum.*\.xlsx$/i,
  'problem-summary': /^bionlp2023-1a-test.*\.csv$/i,
  longhealth: /^benchmark_v\d+\.json$/i,
  medisumqa: /^medisumqa.*\.json$/i,
  medisumcode: /^medisumcode.*\.json$/i,
};

/** The official file of each task found in `folder` (by its published name), and what is missing. */
export function findClueFiles(folder: string): {
  files: Partial<Record<ClueTaskName, string>>;
  missing: ClueTaskName[];
} {
  if (!existsSync(folder)) {
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `CLUE data folder not found: ${folder}` });
  }
  const names = readdirSync(folder);
  const files: Partial<Record<ClueTaskName, string>> = {};
  const missing: ClueTaskName[] = [];
  for (const task of CLUE_TASKS) {
    const name = names.find((candidate) => FILE_PATTERNS[task].test(candidate));
    if (name) files[task] = join(folder, name);
    else missing.push(task);
  }
  return { files, missing };
}

export { loadMeQSum };
