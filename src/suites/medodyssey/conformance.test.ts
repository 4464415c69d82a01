import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTokenizer } from '../../tokenizers/registry.js';
import { type BuildStatistics, buildSamples } from './build-samples.js';
import { DEFAULT_GAMMA, DEPTHS, type Language, LEVELS } from './constants.js';
import { loadHaystack, loadNeedles, resolveDatasetFolder } from './release.js';

/**
 * Checks a `ratio` build of the official release against published NIAH prompts: their
 * character lengths and token counts as recorded in the authors' outputs. Needs the
 * release folder: MEDBENCH_SHARED_DATA=<shared/data> (holding medodyssey/).
 */
const shared = process.env.MEDBENCH_SHARED_DATA;
const folder = shared ? join(shared, 'medodyssey') : undefined;
const available = folder !== undefined && existsSync(join(folder, 'niah-conformance.json'));
if (!available) {
  console.warn(
    'SKIPPED conformance.test.ts: set MEDBENCH_SHARED_DATA to the shared data folder (holding medodyssey/) to check the build against the published prompts.',
  );
}

interface ConformanceEntry {
  lang: Language;
  needle_id: number;
  depth: number;
  level: number;
  prompt_chars: number;
  tokenizer: string;
  prompt_tokens: number;
}

describe.skipIf(!available)('ratio build against the published NIAH prompts', () => {
  it('hits every niah-conformance.json entry exactly (characters and tokens)', async () => {
    const entries = JSON.parse(
      readFileSync(join(folder!, 'niah-conformance.json'), 'utf8'),
    ) as ConformanceEntry[];
    const datasetFolder = resolveDatasetFolder(folder!);
    const tokenizers = [await getTokenizer('o200k_base'), await getTokenizer('cl100k_base')];
    const checked: string[] = [];
    for (const language of ['en', 'zh'] as const) {
      const wanted = entries.filter((entry) => entry.lang === language);
      const levels = [...new Set(wanted.map((entry) => entry.level))];
      const corpus = loadHaystack({
        datasetFolder,
        language,
        kind: 'medical',
        minimumChars: Math.floor(Math.max(...levels) / DEFAULT_GAMMA[language]),
      });
      const needles = loadNeedles(datasetFolder, language).filter((needle) =>
        wanted.some((entry) => entry.needle_id === needle.id),
      );
      const statistics: BuildStatistics = { samples: 0, fastCountMismatches: 0, corpusExhausted: 0 };
      for (const sample of buildSamples(
        {
          sources: [{ language, corpus, needles }],
          tasks: ['niah'],
          levels,
          depths: [...new Set(wanted.map((entry) => entry.depth))],
          countingTypes: [],
          mic: 'ratio',
          gamma: DEFAULT_GAMMA,
          tokenizers,
          haystack: 'medical',
          seed: 'conformance',
          countingSentences: { min: 6, max: 20 },
        },
        statistics,
      )) {
        for (const entry of wanted) {
          if (
            entry.needle_id !== sample.params.needleId ||
            entry.depth !== sample.params.depth ||
            entry.level !== sample.params.level
          )
            continue;
          expect({ id: sample.id, chars: sample.promptChars }).toEqual({
            id: sample.id,
            chars: entry.prompt_chars,
          });
          expect({ id: sample.id, tokens: sample.promptTokens[entry.tokenizer] }).toEqual({
            id: sample.id,
            tokens: entry.prompt_tokens,
          });
          checked.push(`${sample.id}/${entry.tokenizer}`);
        }
      }
    }
    expect(checked).toHaveLength(entries.length);
  });
});

describe.skipIf(!available || !existsSync(join(folder ?? '', 'evaluation_result', 'niah_result')))(
  'ratio build against every published NIAH output',
  () => {
    it('gives every prompt of the grid the length(string) of all twenty published files', {
      timeout: 300_000,
    }, () => {
      const datasetFolder = resolveDatasetFolder(folder!);
      const niahFolder = join(folder!, 'evaluation_result', 'niah_result');
      let compared = 0;
      const misses: string[] = [];
      for (const language of ['en', 'zh'] as const) {
        const published = new Map<string, number>();
        for (const name of readdirSync(niahFolder).filter((file) => file.startsWith(`${language}_`))) {
          for (const text of readFileSync(join(niahFolder, name), 'utf8').split('\n')) {
            if (text.trim() === '') continue;
            const line = JSON.parse(text) as Record<string, number>;
            const key = `${line.idx}/${line['length(origin)']}/${line['position(%)']}`;
            const chars = line['length(string)']!;
            if (published.has(key) && published.get(key) !== chars)
              misses.push(`${name}: ${key} disagrees across files`);
            published.set(key, chars);
            compared++;
          }
        }
        const corpus = loadHaystack({
          datasetFolder,
          language,
          kind: 'medical',
          minimumChars: Math.floor(Math.max(...LEVELS) / DEFAULT_GAMMA[language]),
        });
        const statistics: BuildStatistics = { samples: 0, fastCountMismatches: 0, corpusExhausted: 0 };
        let built = 0;
        for (const sample of buildSamples(
          {
            sources: [{ language, corpus, needles: loadNeedles(datasetFolder, language) }],
            tasks: ['niah'],
            levels: LEVELS,
            depths: DEPTHS,
            countingTypes: [],
            mic: 'ratio',
            gamma: DEFAULT_GAMMA,
            tokenizers: [],
            haystack: 'medical',
            seed: 'conformance',
            countingSentences: { min: 6, max: 20 },
          },
          statistics,
        )) {
          built++;
          const key = `${sample.params.needleId}/${sample.params.level}/${sample.params.depth}`;
          if (published.get(key) !== sample.promptChars)
            misses.push(`${sample.id}: ${sample.promptChars} characters, published ${published.get(key)}`);
        }
        expect(built).toBe(700);
      }
      console.log(
        `${compared - misses.length} of ${compared} published NIAH prompt lengths reproduced (14 000 lines, 1 400 prompts).`,
      );
      expect(misses).toEqual([]);
    });
  },
);
