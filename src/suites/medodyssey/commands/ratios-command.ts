import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseChoiceList } from '../../../compose/parse-options.js';
import type { SuiteCommand } from '../../../compose/suite-plugin.js';
import type { CommandOutput } from '../../../core/command-output.js';
import type { Tokenizer } from '../../../core/tokenizer.js';
import { renderTextTable } from '../../../report/text-table.js';
import { readDataset } from '../../../runner/dataset-file.js';
import { getTokenizer } from '../../../tokenizers/registry.js';
import { LANGUAGES } from '../constants.js';
import { tokenRatios } from '../ratios.js';
import { resolveDatasetFolder } from '../release.js';
import {
  PRINTED_TABLE_A1,
  publishedNiahRatios,
  TABLE_A1_COLUMNS,
  type TableA1Cell,
  tableA1Cells,
} from '../table-a1.js';

export interface RatiosOptions {
  data: string;
  tokenizers: string;
  lang: string;
  haystack: string;
  /** A dataset built by `medbench build`: also measure its prompts per task and language. */
  dataset?: string;
  json?: boolean;
}

const MARK: Record<TableA1Cell['status'], string> = { reproduced: '=', differs: '≠', 'not computable': '' };

function tableA1Text(cells: readonly TableA1Cell[]): string {
  const header = ['Tokenizer', ...TABLE_A1_COLUMNS];
  const rows = PRINTED_TABLE_A1.map((printed) => [
    printed.row,
    ...TABLE_A1_COLUMNS.map((column) => {
      const cell = cells.find((item) => item.row === printed.row && item.column === column)!;
      return cell.measured === null
        ? `— (${cell.printed})`
        : `${cell.measured} ${MARK[cell.status]} ${cell.printed}`;
    }),
  ]);
  // Cells sharing a reason are listed together (every cell named); --json gives each its own.
  const byReason = new Map<string, TableA1Cell[]>();
  for (const cell of cells.filter((item) => item.status !== 'reproduced')) {
    const key = `${cell.status}; ${cell.why}`;
    byReason.set(key, [...(byReason.get(key) ?? []), cell]);
  }
  const notes = [...byReason].map(
    ([reason, group]) =>
      `  ${group.map((cell) => `${cell.row} ${cell.column}${cell.measured === null ? '' : ` (${cell.measured}, printed ${cell.printed})`}`).join(', ')}: ${reason}`,
  );
  const reproduced = cells.filter((cell) => cell.status === 'reproduced');
  return `Table A1 — medbench's value against the printed one ("=" the same to 3 decimals, "≠" different, "—" not computable here)\n${renderTextTable(header, rows)}\nReproduced: ${reproduced.length} of ${cells.length} printed cells (${reproduced.map((cell) => `${cell.row} ${cell.column}`).join(', ')}).\nWhy the others are not:\n${notes.join('\n')}`;
}

/** Tokens per character of a built dataset's prompts, per task and language (any column of Table A1). */
async function datasetRatios(path: string, tokenizers: readonly Tokenizer[]) {
  const dataset = await readDataset(resolve(path));
  const groups = new Map<string, { characters: number; tokens: Record<string, number> }>();
  for (const sample of dataset.samples) {
    const key = `${String(sample.params.language)}.${sample.task}`;
    const group = groups.get(key) ?? { characters: 0, tokens: {} };
    groups.set(key, group);
    group.characters += sample.promptChars;
    for (const tokenizer of tokenizers) {
      group.tokens[tokenizer.name] =
        (group.tokens[tokenizer.name] ?? 0) +
        (sample.promptTokens[tokenizer.name] ?? tokenizer.count(sample.prompt));
    }
  }
  return [...groups].map(([column, group]) => ({
    column,
    characters: group.characters,
    ratios: Object.fromEntries(
      tokenizers.map((tokenizer) => [tokenizer.name, group.tokens[tokenizer.name]! / group.characters]),
    ),
  }));
}

/** `medbench ratios`: Table A1 for the given tokenizers, cell by cell against the paper, and the γ ratio mode would need. */
export async function printRatios(options: RatiosOptions, output: CommandOutput): Promise<void> {
  const tokenizers: Tokenizer[] = [];
  for (const name of options.tokenizers
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean))
    tokenizers.push(await getTokenizer(name));
  const datasetFolder = resolveDatasetFolder(resolve(options.data));
  const haystack = parseChoiceList('--haystack', options.haystack, ['medical', 'generic'] as const)[0]!;
  const rows = tokenRatios({
    datasetFolder,
    languages: options.lang === 'all' ? LANGUAGES : parseChoiceList('--lang', options.lang, LANGUAGES),
    tokenizers,
    haystack,
  });
  const evaluation = [
    join(datasetFolder, 'evaluation_result'),
    join(datasetFolder, '..', 'evaluation_result'),
  ].find((path) => existsSync(path));
  const cells =
    haystack === 'medical'
      ? tableA1Cells({ corpus: rows, published: evaluation ? publishedNiahRatios(evaluation) : new Map() })
      : [];
  const dataset = options.dataset ? await datasetRatios(options.dataset, tokenizers) : [];
  if (options.json) {
    output.stdout(`${JSON.stringify({ corpus: rows, tableA1: cells, dataset }, null, 2)}\n`);
    return;
  }
  const header = ['Corpus', 'Characters', ...tokenizers.map((tokenizer) => tokenizer.name), 'γ needed'];
  const table = rows.map((row) => [
    `${row.language} ${row.haystack}${row.files.listed && row.files.read < row.files.listed ? ` (${row.files.read} of ${row.files.listed} files)` : ''}`,
    String(row.characters),
    ...tokenizers.map((tokenizer) => row.ratios[tokenizer.name]!.toFixed(3)),
    row.gammaNeeded.toFixed(2),
  ]);
  const sections = [
    `Tokens per character over each haystack corpus. In ratio mode, a γ at least "γ needed" keeps every listed tokenizer within its token level.\n${renderTextTable(header, table)}`,
  ];
  if (cells.length > 0) sections.push(tableA1Text(cells));
  if (dataset.length > 0) {
    sections.push(
      `Tokens per character of the prompts of ${options.dataset}, per language and task\n${renderTextTable(
        ['Column', 'Characters', ...tokenizers.map((tokenizer) => tokenizer.name)],
        dataset.map((row) => [
          row.column,
          String(row.characters),
          ...tokenizers.map((tokenizer) => row.ratios[tokenizer.name]!.toFixed(3)),
        ]),
      )}`,
    );
  }
  output.stdout(`${sections.join('\n\n')}\n`);
}

/** `medbench ratios`, a command of its own (no verb), as the CLI declares it. */
export const ratiosCommand: SuiteCommand = {
  name: 'ratios',
  description:
    'token-to-character ratios (Table A1): each tokenizer on each MedOdyssey haystack, every printed cell compared, and the γ it needs',
  options: [
    {
      flags: '--data <folder>',
      description: 'the official release: repository root or its dataset/ folder',
      required: true,
    },
    {
      flags: '--tokenizers <names>',
      description: 'tokenizers or model names',
      default: 'gpt-4-turbo,gpt-4o,claude-3-haiku,llama3',
    },
    { flags: '--lang <languages>', description: 'en, zh or all', default: 'all' },
    {
      flags: '--haystack <kind>',
      description: 'medical or generic',
      choices: ['medical', 'generic'],
      default: 'medical',
    },
    {
      flags: '--dataset <file>',
      description: 'also measure the prompts of a built dataset, per language and task',
    },
    { flags: '--json', description: 'rows as JSON' },
  ],
  run: (call, context) => printRatios(call.options as unknown as RatiosOptions, context.output),
};
