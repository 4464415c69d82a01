import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import type { MedicalLine } from './published-lines.js';
import { readJsonFile } from './release.js';

/** Gold data of the published medical-task outputs, as the published scorer took it. */

/** `raw_data/zh_medcase/answer_correct.json`: sample id → accepted alternatives (one-element lists). */
export function loadCaseAlternatives(datasetFolder: string): Record<string, string[][]> {
  const path = join(datasetFolder, 'raw_data', 'zh_medcase', 'answer_correct.json');
  if (!existsSync(path)) return {};
  const json = readJsonFile(path);
  const parsed = z.record(z.string(), z.array(z.array(z.string()).min(1)).min(1)).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: entry ${issue.path.join('.')}: expected a list of alternatives, each a list of strings whose first string is the answer (e.g. [["14"], ["14岁"]]).`,
      hint: 'Restore the file from the official release.',
    });
  }
  return parsed.data;
}

/**
 * Case gold as the published scorer took it: the alternatives of answer_correct.json when the
 * sample id is listed there (they replace the line's own answer), a line's nested
 * `true_answer` (already a list of alternatives), or the line's answer as the only one.
 */
function caseAlternatives(
  trueAnswer: MedicalLine['true_answer'],
  listed: string[][] | undefined,
): string[][] {
  if (listed) return listed;
  if (Array.isArray(trueAnswer) && trueAnswer.some((item) => Array.isArray(item))) {
    return (trueAnswer as Array<string | string[]>).map((item) => (Array.isArray(item) ? item : [item]));
  }
  return [Array.isArray(trueAnswer) ? (trueAnswer as string[]) : [trueAnswer]];
}

/** Flat gold strings of a KG, Term or Table line (a nested answer keeps each alternative's first string). */
function flatAnswers(trueAnswer: MedicalLine['true_answer']): string[] {
  const list: Array<string | string[]> = Array.isArray(trueAnswer) ? trueAnswer : [trueAnswer];
  return list.map((item) => (Array.isArray(item) ? (item[0] ?? '') : item));
}

/** The gold data of a published KG, Term, Table or Case line. */
export function medicalGold(
  task: 'kg' | 'term' | 'table' | 'case',
  line: MedicalLine,
  listed: string[][] | undefined,
) {
  switch (task) {
    case 'term':
      return { answer: flatAnswers(line.true_answer)[0] ?? '' };
    case 'kg':
      return { triplets: flatAnswers(line.true_answer) };
    case 'table':
      return { answers: flatAnswers(line.true_answer) };
    case 'case':
      return { alternatives: caseAlternatives(line.true_answer, listed) };
  }
}
