import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
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
  /** The reference problems, ";"-separated in the file, joined with ", ". */
  summary: string;
}
export interface LongHealthQuestion {
  id: string;
  patientId: string;
  question: string;
  options: Record<'A' | 'B' | 'C' | 'D' | 'E', string>;
  /** The letter of the right option. */
  correct: 'A' | 'B' | 'C' | 'D' | 'E';
  /** Documents holding the answer, with character spans. */
  answerLocations: Record<string, { start: number[]; end: number[] }>;
}
export interface LongHealthData {
  /** patient id → document id → text */
  documents: Record<string, Record<string, string>>;
  questions: LongHealthQuestion[];
}
export interface MeDiSumQaItem {
  id: string;
  dischargeSummary: string;
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
    return JSON.parse(readFileSync(path, 'utf8'));
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
  return readFileSync(path, 'utf8')
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
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
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
      summary: (fields[summary] ?? '')
        .split(';')
        .map((problem) => problem.trim())
        .filter(Boolean)
        .join(', '),
    };
    if (item.summary === '') fail(path, `:${line}`, 'empty Summary');
    if (`${item.subjective}${item.assessment}`.trim() === '')
      fail(path, `:${line}`, 'empty Subjective and Assessment');
    return item;
  });
}

const letters = ['A', 'B', 'C', 'D', 'E'] as const;
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
        A: item.answer_a,
        B: item.answer_b,
        C: item.answer_c,
        D: item.answer_d,
        E: item.answer_e,
      };
      const correct = letters.find((letter) => options[letter] === item.correct);
      if (!correct)
        fail(path, ` ${patientId}.questions.${index}`, '"correct" matches none of answer_a … answer_e');
      questions.push({
        id: `${patientId}-q${index}`,
        patientId,
        question: item.question,
        options,
        correct,
        answerLocations: item.answer_location,
      });
    });
  }
  return { documents, questions };
}

/** MeDiSumQA: a JSON list of { discharge_summary, Question, Answer }. */
export function loadMeDiSumQa(path: string): MeDiSumQaItem[] {
  const parsed = z
    .array(
      z.object({
        discharge_summary: z.string().min(1),
        Question: z.string().min(1),
        Answer: z.string().min(1),
      }),
    )
    .safeParse(readJson(path));
  if (!parsed.success) fail(path, '', issueText(parsed.error));
  return parsed.data.map((item, index) => ({
    id: `item-${index}`,
    dischargeSummary: item.discharge_summary,
    question: item.Question,
    answer: item.Answer,
  }));
}

/** MeDiSumCode: a JSON list of { text, icd_codes: [{ code }] }. */
export function loadMeDiSumCode(path: string): MeDiSumCodeItem[] {
  const parsed = z
    .array(
      z.object({
        text: z.string().min(1),
        icd_codes: z.array(z.object({ code: z.string().min(1) }).loose()).min(1),
      }),
    )
    .safeParse(readJson(path));
  if (!parsed.success) fail(path, '', issueText(parsed.error));
  return parsed.data.map((item, index) => ({
    id: `item-${index}`,
    text: item.text,
    codes: item.icd_codes.map((code) => code.code.replaceAll('.', '').trim()),
  }));
}

/**
 * The official ICD-10-CM code table: the "order" file (order number, code, header flag,
 * titles) or the "codes" file (code, title). Every listed code counts as valid.
 */
export function loadIcd10Codes(path: string): Set<string> {
  const codes = new Set<string>();
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      const order = /^\d{5} ([A-Z0-9]{3,7})\s+[01] /.exec(text);
      const plain = /^([A-Z][0-9][0-9A-Z]{1,5})\s/.exec(text);
      const code = order?.[1] ?? plain?.[1];
      if (!code) fail(path, `:${index + 1}`, 'not a line of the ICD-10-CM order or codes file');
      codes.add(code);
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
