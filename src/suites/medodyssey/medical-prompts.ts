import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import type { Language } from './constants.js';
import { readJsonFile } from './release.js';

export type MedicalTask = 'kg' | 'term' | 'table' | 'case';

/** What goes before the context, between units, and after it. */
export interface MedicalPromptShape {
  head: string;
  separator: string;
  tail: string;
}

/** Prompt templates by key (`zh_kg`, `en_norm` …), as in the release's `prompt.json`. */
export interface PromptTemplates {
  path: string;
  templates: Readonly<Record<string, string>>;
}

/** Each task's template key stem and placeholders, as the authors' inference script filled them. */
const SLOTS: Readonly<Record<MedicalTask, { key: string; context: string; question: string }>> = {
  term: { key: 'norm', context: 'concept_set', question: 'mention' },
  kg: { key: 'kg', context: 'triplets', question: 'question' },
  table: { key: 'table', context: 'tables', question: 'question' },
  case: { key: 'medcase', context: 'medcases', question: 'question' },
};

/**
 * The `{output_format}` values: Python's `json.dumps` of the answer shape with
 * `ensure_ascii=False`, as the authors' script wrote them (the list ends in "…", U+2026; the
 * paper's Figures B8–B11 print three dots).
 */
export const OUTPUT_FORMATS: Readonly<Record<'single' | 'list', string>> = {
  single: '{"result": "xxx"}',
  list: '{"result": ["xxx", "xxx", "…"]}',
};

export function loadPromptTemplates(path: string): PromptTemplates {
  const parsed = z.record(z.string(), z.string()).safeParse(
    readJsonFile(path, {
      missing: "Pass the release's prompt.json (the dataset/ folder of the official release) with --prompts.",
      invalid: 'prompt.json is one JSON object of template strings (key → template).',
    }),
  );
  if (!parsed.success) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: expected one JSON object of template strings (e.g. "zh_kg": "…{triplets}…").`,
      hint: "Use the release's prompt.json unchanged, or a file of the same shape.",
    });
  }
  return { path, templates: parsed.data };
}

/** Python's `str.format` with keyword fields only: `{name}` filled, `{{` and `}}` escaped. */
export function formatTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  where: string,
): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = values[name!];
    if (value === undefined) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${where}: unknown placeholder {${name}}; this template may use ${Object.keys(values)
          .map((key) => `{${key}}`)
          .join(', ')}.`,
      });
    }
    return value;
  });
}

/**
 * The prompt around a question's context: the `<lang>_<task>` template of prompt.json filled as
 * the authors' script did (`{output_format}`, the question or mention, and the context units
 * joined by newlines), split at the context.
 */
export function medicalPrompt(
  prompts: PromptTemplates,
  task: MedicalTask,
  language: Language,
  question: string,
): MedicalPromptShape {
  const slot = SLOTS[task];
  const key = `${language}_${slot.key}`;
  const template = prompts.templates[key];
  if (template === undefined) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${prompts.path} has no "${key}" template, which ${language} ${task} needs.`,
      hint: `Add "${key}" with the placeholders {output_format}, {${slot.question}} and {${slot.context}}, or pass another file with --prompts.`,
    });
  }
  const marker = '\u0000context\u0000';
  const filled = formatTemplate(
    template,
    {
      output_format: task === 'term' ? OUTPUT_FORMATS.single : OUTPUT_FORMATS.list,
      [slot.question]: question,
      [slot.context]: marker,
    },
    `${prompts.path} "${key}"`,
  );
  const [head, tail, ...rest] = filled.split(marker);
  if (tail === undefined || rest.length > 0) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${prompts.path} "${key}": the template must hold {${slot.context}} exactly once.`,
    });
  }
  return { head: head!, separator: '\n', tail };
}

/**
 * A Table or Case question as the authors' script asked it: prefixed with the name of the unit
 * it is about (zh published; the en wording is medbench's, no en prompt was published).
 */
export function namedQuestion(
  task: 'table' | 'case',
  language: Language,
  name: string | undefined,
  question: string,
) {
  if (!name) return question;
  if (language === 'zh')
    return task === 'table' ? `在表格“${name}”中，${question}` : `在病例“${name}”中，${question}`;
  return task === 'table' ? `In the table "${name}", ${question}` : `In the case "${name}", ${question}`;
}

/** A unit's name from its title line ("表格：…", "病例：…", "Table: …", "Case: …"), if it has one. */
export function unitName(unit: string): string | undefined {
  const first = unit
    .split('\n', 1)[0]!
    .replace(/^#+\s*/, '')
    .trim();
  const match = /^(?:表格|病例)[：:]\s*(.+)$|^(?:Table|Case)\s*:\s*(.+)$/i.exec(first);
  return match ? (match[1] ?? match[2])!.trim() : undefined;
}
