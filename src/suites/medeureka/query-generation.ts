import { z } from 'zod';
import {
  EXAMPLE_OUTPUT_EN,
  PAPER_EXAMPLE_OUTPUT_ZH,
  TABLE_QUERY_PROMPTS,
} from './query-generation-prompts.js';
import type { SourceDocument } from './read-documents.js';

export type QueryLanguage = keyof typeof TABLE_QUERY_PROMPTS;

/** Python `str.format` on named slots: `{{` and `}}` are braces, a slot's value is not parsed again. */
export function pythonFormat(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    const value = values[name!];
    if (value === undefined) throw new Error(`no value for the slot {${name}}`);
    return value;
  });
}

/** The prompt asking for one question about `table`, after the example. */
export function tableQueryPrompt(options: {
  language: QueryLanguage;
  exampleTable: string;
  /** Default: the paper's example output (zh), or medbench's translation of it (en). */
  exampleOutput?: string;
  table: string;
}): string {
  return pythonFormat(TABLE_QUERY_PROMPTS[options.language], {
    example_table: options.exampleTable,
    example_output:
      options.exampleOutput ?? (options.language === 'zh' ? PAPER_EXAMPLE_OUTPUT_ZH : EXAMPLE_OUTPUT_EN),
    query_table: options.table,
  });
}

export interface GeneratedQuery {
  table: string;
  column: string;
  rows: string[];
  question: string;
  answer: string;
}

const text = z.string();
const chinese = z.object({ 表名: text, 列: text, 行: z.array(text), 问题: text.min(1), 答案: text }).loose();
const english = z
  .object({ table: text, column: text, rows: z.array(text), question: text.min(1), answer: text })
  .loose();

/**
 * The model's answer as the prompt asks for it: a JSON object (in a ```json block or bare) with the
 * five fields, under the prompt's keys (Chinese or English, either accepted). Anything else is
 * undefined: the document gets no query, and the review file says why.
 */
export function parseGeneratedQuery(output: string): GeneratedQuery | undefined {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/.exec(output)?.[1];
  const candidate = fenced ?? output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1);
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch {
    return undefined;
  }
  const zh = chinese.safeParse(value);
  if (zh.success)
    return {
      table: zh.data.表名,
      column: zh.data.列,
      rows: zh.data.行,
      question: zh.data.问题,
      answer: zh.data.答案,
    };
  const en = english.safeParse(value);
  return en.success
    ? {
        table: en.data.table,
        column: en.data.column,
        rows: en.data.rows,
        question: en.data.question,
        answer: en.data.answer,
      }
    : undefined;
}

/** One document's outcome: the query made of it, or why there is none. */
export interface DocumentQuery {
  document: SourceDocument;
  output: string;
  query: GeneratedQuery | undefined;
}

/**
 * The generated set in MedEureka's plain release form (docs/formats.md), which `run medeureka
 * --data` reads: `queries.jsonl` (each question with its document as the one target),
 * `corpus.json` (every document, the ones without a query too: they are distractors), and
 * `review.jsonl` with each document's parsed answer and the model's raw output, for the human
 * review the paper did before using the questions.
 */
export function generatedRelease(task: string, results: readonly DocumentQuery[]): Record<string, string> {
  const corpus = [...new Set(results.map((result) => result.document.text))];
  return {
    'queries.jsonl': results
      .filter((result) => result.query)
      .map(
        (result) =>
          `${JSON.stringify({ task, query: result.query!.question, targets: [result.document.text] })}\n`,
      )
      .join(''),
    'corpus.json': `${JSON.stringify({ [task]: corpus })}\n`,
    'review.jsonl': results
      .map(
        (result) =>
          `${JSON.stringify({ document: result.document.id, status: result.query ? 'ok' : 'unparsable', ...(result.query ?? {}), output: result.output })}\n`,
      )
      .join(''),
  };
}
