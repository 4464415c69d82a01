import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Tokenizer } from '../../core/tokenizer.js';
import type { Language } from './constants.js';
import { EN_GUIDELINE_ORDER, type HaystackKind, loadHaystack, ZH_BOOK_ORDER } from './release.js';

export interface RatioRow {
  language: Language;
  haystack: HaystackKind;
  characters: number;
  /** Haystack files read, of those the published order lists (generic: of those present). */
  files: { read: number; listed: number; firstMissing?: string };
  /** tokenizer name → tokens per character over the whole corpus. */
  ratios: Record<string, number>;
  /** The smallest γ (2 decimals, rounded up) that keeps every listed tokenizer within budget in ratio mode. */
  gammaNeeded: number;
}

/**
 * Table A1: the token-to-character ratio of each tokenizer over each language's haystack
 * corpus (all files, normalised as the build reads them). Over the official English
 * guidelines this gives the published 0.281 (GPT-4), 0.275 (GPT-4o) and 0.289 (Claude 3).
 */
export function tokenRatios(options: {
  datasetFolder: string;
  languages: readonly Language[];
  tokenizers: readonly Tokenizer[];
  haystack: HaystackKind;
}): RatioRow[] {
  return options.languages.map((language) => {
    const corpus = loadHaystack({
      datasetFolder: options.datasetFolder,
      language,
      kind: options.haystack,
      minimumChars: 1,
      preferredChars: Number.POSITIVE_INFINITY,
    });
    const ratios = Object.fromEntries(
      options.tokenizers.map((tokenizer) => [tokenizer.name, tokenizer.count(corpus.text) / corpus.length]),
    );
    const order = language === 'en' ? EN_GUIDELINE_ORDER : ZH_BOOK_ORDER;
    const folder = join(options.datasetFolder, 'raw_data', language === 'en' ? 'en_guidelines' : 'zh_book');
    let read = 0;
    while (read < order.length && existsSync(join(folder, order[read]!))) read++;
    return {
      language,
      haystack: options.haystack,
      characters: corpus.length,
      files:
        options.haystack === 'medical'
          ? { read, listed: order.length, ...(read < order.length ? { firstMissing: order[read]! } : {}) }
          : { read: 0, listed: 0 },
      ratios,
      gammaNeeded: Math.ceil(Math.max(...Object.values(ratios)) * 100) / 100,
    };
  });
}
