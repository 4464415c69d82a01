import { resolve } from 'node:path';
import type { Tokenizer } from '../../core/tokenizer.js';
import { renderTextTable } from '../../report/text-table.js';
import { LANGUAGES } from '../../suites/medodyssey/constants.js';
import { tokenRatios } from '../../suites/medodyssey/ratios.js';
import { resolveDatasetFolder } from '../../suites/medodyssey/release.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import { parseChoiceList } from '../parse-options.js';
import type { CommandOutput } from './build-medodyssey.js';

export interface RatiosOptions {
  data: string;
  tokenizers: string;
  lang: string;
  haystack: string;
  json?: boolean;
}

/** `medbench ratios`: Table A1 for the given tokenizers, and the γ ratio mode would need. */
export async function ratiosCommand(options: RatiosOptions, output: CommandOutput): Promise<void> {
  const tokenizers: Tokenizer[] = [];
  for (const name of options.tokenizers
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean))
    tokenizers.push(await getTokenizer(name));
  const rows = tokenRatios({
    datasetFolder: resolveDatasetFolder(resolve(options.data)),
    languages: options.lang === 'all' ? LANGUAGES : parseChoiceList('--lang', options.lang, LANGUAGES),
    tokenizers,
    haystack: parseChoiceList('--haystack', options.haystack, ['medical', 'generic'] as const)[0]!,
  });
  if (options.json) {
    output.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  const header = ['Corpus', 'Characters', ...tokenizers.map((tokenizer) => tokenizer.name), 'γ needed'];
  const table = rows.map((row) => [
    `${row.language} ${row.haystack}${row.files.listed && row.files.read < row.files.listed ? ` (${row.files.read} of ${row.files.listed} files)` : ''}`,
    String(row.characters),
    ...tokenizers.map((tokenizer) => row.ratios[tokenizer.name]!.toFixed(3)),
    row.gammaNeeded.toFixed(2),
  ]);
  output.stdout(
    `Tokens per character over each haystack corpus (Table A1). In ratio mode, a γ at least "γ needed" keeps every listed tokenizer within its token level.\n${renderTextTable(header, table)}\n`,
  );
}
