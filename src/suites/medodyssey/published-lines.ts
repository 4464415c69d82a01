import { z } from 'zod';
import { readJsonLinesFile, readTextFile } from '../../io/text-file.js';

/** The accepted shapes of each field, in words for error messages (docs/medodyssey-release.md). */
const EXPECTED: Readonly<Record<string, string>> = {
  id: 'an integer sample id',
  idx: 'an integer needle id',
  type: 'a string: the sample type (NIAH: "general" or "med")',
  input: 'a string (the question, or the whole prompt for Counting)',
  true_answer:
    'a string, a list of strings, or a list of alternative lists such as [["3"], ["3次"]] (Counting: a list of integers)',
  pred_origin: "a string (the model's raw output) or null",
  token_len: 'an integer or null',
  sample_size: 'an integer length level such as 4000',
  model: 'a string (the model id)',
  note: 'a string: "", "wrong format" or "too long"',
  'position(%)': 'an integer depth in percent (0, 25, 50, 75 or 100)',
  'length(origin)': 'an integer length level such as 4000',
  'length(string)': 'an integer or null',
  'length(tokens)': 'an integer or null',
};

const note = z.enum(['', 'wrong format', 'too long']);
const nullableCount = z.number().int().nonnegative().nullable().optional();
const level = z.number().int().positive();

/** A line of `niah_result/<lang>_<model>_v1.jsonl`. */
export const niahLineSchema = z.object({
  idx: z.number().int().nonnegative(),
  // The needle type: the release writes "med", the format notes "medical".
  type: z.enum(['general', 'med', 'medical']).transform((type) => (type === 'medical' ? 'med' : type)),
  pred_answer: z.unknown(),
  pred_origin: z.string().nullable(),
  'position(%)': z.number().int().min(0).max(100),
  'length(origin)': level,
  'length(string)': nullableCount,
  'length(tokens)': nullableCount,
  model: z.string(),
  note,
  needle: z.string().optional(),
  question: z.string().optional(),
  true_answer: z.union([z.string(), z.array(z.string())]).optional(),
});

const taskLine = {
  id: z.number().int().nonnegative(),
  type: z.string(),
  input: z.string(),
  pred_answer: z.unknown(),
  pred_origin: z.string().nullable(),
  token_len: nullableCount,
  sample_size: level,
  model: z.string(),
  note,
};

/** A line of `task_result/<lang>_counting_<model>_v1.jsonl` or `counting_compare_result/`. */
export const countingLineSchema = z.object({ ...taskLine, true_answer: z.array(z.number().int()) });

/** A line of the KG, Term (`norm`), Table or Case files of `task_result/`. */
export const medicalLineSchema = z.object({
  ...taskLine,
  true_answer: z.union([z.string(), z.array(z.string()), z.array(z.array(z.string()).min(1))]),
});

export type NiahLine = z.infer<typeof niahLineSchema>;
export type CountingLine = z.infer<typeof countingLineSchema>;
export type MedicalLine = z.infer<typeof medicalLineSchema>;

const FIX =
  'Correct or delete that line (docs/medodyssey-release.md lists every field and its shapes) and import again; nothing was imported.';

/** Decodes a file as UTF-8 (a BOM is dropped); UTF-16 or invalid bytes are an error naming the line. */
export function readUtf8(path: string): string {
  return readTextFile(path);
}

/**
 * The lines of a published-outputs file, each parsed and checked against `schema`. A bad line is
 * an error naming file, line and field, what was expected (in the release's terms) and what was found.
 */
export function readJsonLines<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
): Array<{ line: number; value: z.infer<Schema> }> {
  return readJsonLinesFile(path, schema, { expected: EXPECTED, hint: FIX });
}
