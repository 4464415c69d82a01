import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from './constants.js';
import { listPublishedFiles } from './published-files.js';
import { niahLineSchema, readJsonLines } from './published-lines.js';
import type { RatioRow } from './ratios.js';

/** Table A1's columns, in the paper's order. */
export const TABLE_A1_COLUMNS = [
  'En.NIAH',
  'Zh.NIAH',
  'En.KG',
  'Zh.KG',
  'En.Term',
  'Zh.Term',
  'Zh.Case',
  'Zh.Table',
] as const;
export type TableA1Column = (typeof TABLE_A1_COLUMNS)[number];

/**
 * Table A1 as printed (seed 001, Appendix A): a row per tokenizer, with the release's model ids
 * it stands for and the medbench tokenizer that is the same one, where medbench ships it.
 * Zh.Term is printed as a range.
 */
export const PRINTED_TABLE_A1: ReadonlyArray<{
  row: string;
  models: readonly string[];
  tokenizer: string | null;
  values: Readonly<Record<TableA1Column, string>>;
}> = [
  {
    row: 'GPT-4',
    models: ['gpt-4-turbo-2024-04-09'],
    tokenizer: 'cl100k_base',
    values: cells('0.281 1.402 0.267 1.473 0.267 1.446–1.676 1.316 1.178'),
  },
  {
    row: 'GPT-4o',
    models: ['gpt-4o'],
    tokenizer: 'o200k_base',
    values: cells('0.275 1.005 0.252 1.029 0.253 0.991–1.124 0.904 0.802'),
  },
  {
    row: 'Claude 3 Haiku/Sonnet',
    models: ['claude-3-haiku-20240307', 'claude-3-sonnet-20240229'],
    tokenizer: 'claude-legacy',
    values: cells('0.289 1.342 0.275 1.330 0.264 1.291–1.483 1.191 1.072'),
  },
  {
    row: 'Moonshot-v1',
    models: ['moonshot-v1-128k'],
    tokenizer: null,
    values: cells('0.286 0.924 0.266 0.737 0.265 0.732–0.780 0.712 0.600'),
  },
  {
    row: 'ChatGLM3-6b-128k',
    models: ['chatglm3-6b-128k'],
    tokenizer: null,
    values: cells('0.342 0.924 0.313 0.750 0.302 0.760–0.827 0.746 0.630'),
  },
  {
    row: 'InternLM2-chat-7b/20b',
    models: ['internlm2-chat-7b', 'internlm2-chat-20b'],
    tokenizer: null,
    values: cells('0.299 0.899 0.292 0.739 0.289 0.750–0.797 0.725 0.608'),
  },
  {
    row: 'Yi-6b-200k',
    models: ['Yi-6B-200K'],
    tokenizer: null,
    values: cells('0.342 0.992 0.301 0.812 0.293 0.791–0.883 0.773 0.659'),
  },
  {
    row: 'Yarn-Mistral-7b-128k',
    models: ['Yarn-Mistral-7b-128k'],
    tokenizer: null,
    values: cells('0.355 1.394 0.331 1.430 0.324 1.362–1.607 1.286 1.139'),
  },
];

function cells(line: string): Record<TableA1Column, string> {
  const values = line.split(' ');
  return Object.fromEntries(TABLE_A1_COLUMNS.map((column, index) => [column, values[index]!])) as Record<
    TableA1Column,
    string
  >;
}

export interface TableA1Cell {
  row: string;
  column: TableA1Column;
  printed: string;
  /** medbench's value, 3 decimals, or null when it cannot be computed. */
  measured: string | null;
  status: 'reproduced' | 'differs' | 'not computable';
  why: string;
}

/**
 * Tokens per character of the whole prompts, from a release's published NIAH outputs: each
 * line records the prompt's characters and its tokens under the model's own tokenizer.
 */
export function publishedNiahRatios(evaluationFolder: string): Map<string, Record<Language, number>> {
  const ratios = new Map<string, Record<Language, number>>();
  if (!existsSync(join(evaluationFolder, 'niah_result'))) return ratios;
  for (const file of listPublishedFiles(evaluationFolder).files.filter((item) => item.kind.task === 'niah')) {
    let tokens = 0;
    let characters = 0;
    for (const { value } of readJsonLines(file.path, niahLineSchema)) {
      if (value['length(tokens)'] == null || value['length(string)'] == null) continue;
      tokens += value['length(tokens)'];
      characters += value['length(string)'];
    }
    if (characters === 0) continue;
    const entry = ratios.get(file.model) ?? ({} as Record<Language, number>);
    entry[file.language] = tokens / characters;
    ratios.set(file.model, entry);
  }
  return ratios;
}

const three = (value: number) => value.toFixed(3);

/**
 * Table A1, cell by cell: medbench's value where it can measure one, and where and why it
 * differs from the printed value. NIAH columns are tokens per character over each language's
 * haystack corpus as the build reads it; the medical columns need the task contexts, which the
 * public release does not hold.
 */
export function tableA1Cells(options: {
  corpus: readonly RatioRow[];
  published: ReadonlyMap<string, Record<Language, number>>;
}): TableA1Cell[] {
  const cellsOut: TableA1Cell[] = [];
  for (const printed of PRINTED_TABLE_A1) {
    for (const column of TABLE_A1_COLUMNS) {
      const base = { row: printed.row, column, printed: printed.values[column] };
      const language: Language = column.startsWith('En') ? 'en' : 'zh';
      if (!column.endsWith('NIAH')) {
        cellsOut.push({
          ...base,
          measured: null,
          status: 'not computable',
          why: `the ${column} task contexts (the authors' task_data/${language}_${column.split('.')[1]!.toLowerCase().replace('term', 'norm').replace('case', 'medcase')}/input_data.jsonl) are not in the public release; \`medbench ratios --dataset <your build>\` measures your own build.`,
        });
        continue;
      }
      const corpus = options.corpus.find((row) => row.language === language);
      const value = printed.tokenizer ? corpus?.ratios[printed.tokenizer] : undefined;
      if (value === undefined || corpus === undefined) {
        const fromOutputs = printed.models
          .map((model) => options.published.get(model)?.[language])
          .find((ratio) => ratio !== undefined);
        cellsOut.push({
          ...base,
          measured: null,
          status: 'not computable',
          why: printed.tokenizer
            ? `run with --tokenizers including ${printed.tokenizer} and --lang ${language}.`
            : `medbench has no ${printed.row} tokenizer (\`medbench tokenizers\` lists those it has)${
                fromOutputs !== undefined
                  ? `; the release's NIAH outputs give ${three(fromOutputs)} tokens per character of the whole prompts under the model's own tokenizer (length(tokens)/length(string), all levels), a different text from the haystack the paper measured`
                  : ''
              }.`,
        });
        continue;
      }
      const files =
        corpus.files.listed > 0 ? ` (${corpus.files.read} of the ${corpus.files.listed} listed files)` : '';
      if (three(value) === printed.values[column]) {
        cellsOut.push({
          ...base,
          measured: three(value),
          status: 'reproduced',
          why: `${printed.tokenizer} over the ${language} haystack the NIAH build reads, ${corpus.characters} characters${files}.`,
        });
        continue;
      }
      cellsOut.push({
        ...base,
        measured: three(value),
        status: 'differs',
        why: `${printed.tokenizer} over the ${corpus.characters} characters of the ${language} haystack the NIAH build reads${files}. The paper does not say which text it measured${
          corpus.files.firstMissing
            ? `; the release lacks ${corpus.files.firstMissing}, and the build reads the listed files in order up to the first gap, so the authors may have measured more text`
            : ''
        }. No rule is tuned to this cell (docs/scoring.md, "Table A1").`,
      });
    }
  }
  return cellsOut;
}
