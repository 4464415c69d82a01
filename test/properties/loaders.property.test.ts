import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { loadConfig } from '../../src/compose/config.js';
import type { Sample } from '../../src/core/sample.js';
import { readGgufHeader } from '../../src/providers/gguf/gguf-header.js';
import { LocalOnnxEmbeddingModel } from '../../src/providers/local-onnx/local-onnx-embedding-model.js';
import { readDataset, writeDataset } from '../../src/runner/dataset-file.js';
import {
  loadIcd10Codes,
  loadLongHealth,
  loadMeDiSumCode,
  loadMeDiSumQa,
  loadMedNli,
  loadProblemSummary,
} from '../../src/suites/clue/load-tasks.js';
import { loadMeQSum } from '../../src/suites/clue/meqsum.js';
import { loadMrconso } from '../../src/suites/clue/mrconso.js';
import { loadMedEurekaRelease } from '../../src/suites/medeureka/load-release.js';
import { loadCountingDraws } from '../../src/suites/medodyssey/counting-draws.js';
import { loadCountingHaystack } from '../../src/suites/medodyssey/counting-haystack.js';
import { loadPromptTemplates } from '../../src/suites/medodyssey/medical-prompts.js';
import { loadMedicalSources } from '../../src/suites/medodyssey/medical-sources.js';
import { loadCaseAlternatives, readPublishedOutputs } from '../../src/suites/medodyssey/published-outputs.js';
import { loadHaystack, loadNeedles } from '../../src/suites/medodyssey/release.js';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { aNumberEdit, anEdit, fuzzFolder } from '../support/fuzz.js';
import { writeTinyGgufModel } from '../support/tiny-gguf-model.js';
import { writeTinyOnnxModel } from '../support/tiny-onnx-model.js';

/**
 * Every loader, on edited copies of real inputs in the official formats (the shipped samples and
 * the test fixtures): it loads, or it stops with a MedbenchError — never another exception.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const samples = join(ROOT, 'samples');
const release = join(samples, 'medodyssey', 'dataset');
const scratch = mkdtempSync(join(tmpdir(), 'medbench-properties-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function filesUnder(folder: string, under = ''): string[] {
  return readdirSync(join(folder, under), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/** A folder of its own under the scratch folder, filled by `write`. */
async function folderWith(name: string, write: (folder: string) => void | Promise<void>): Promise<string> {
  const folder = join(scratch, name);
  mkdirSync(folder, { recursive: true });
  await write(folder);
  return folder;
}

describe('MedOdyssey loaders never throw anything but a MedbenchError', () => {
  it('needles', async () => {
    await fuzzFolder({
      source: release,
      files: filesUnder(release, join('task_data', 'needles')),
      load: (folder) => [loadNeedles(folder, 'en'), loadNeedles(folder, 'zh')],
    });
  });

  it('haystacks (NIAH and Counting)', async () => {
    await fuzzFolder({
      source: release,
      files: filesUnder(release, 'raw_data'),
      runs: 100,
      load: (folder) => {
        for (const language of ['en', 'zh'] as const)
          for (const kind of ['medical', 'generic'] as const) {
            loadHaystack({ datasetFolder: folder, language, kind, minimumChars: 500 });
            loadCountingHaystack({ datasetFolder: folder, language, kind, minimumChars: 500 });
          }
      },
    });
  });

  it('the sources of the medical tasks and prompt.json', async () => {
    const source = join(samples, 'medodyssey-sources');
    await fuzzFolder({
      source,
      files: filesUnder(source).filter((file) => file !== 'README.md'),
      runs: 250,
      load: (folder) => {
        loadMedicalSources({
          folder,
          tasks: ['kg', 'term', 'table', 'case'],
          languages: ['en', 'zh'],
          kgQuestions: 3,
          seed: 'fuzz',
        });
        loadPromptTemplates(join(folder, 'prompt.json'));
      },
    });
  });

  it('Counting draws', async () => {
    const source = await folderWith('draws', (folder) =>
      writeFileSync(
        join(folder, 'draws.json'),
        JSON.stringify({
          language: 'zh',
          medical: [
            {
              id: 0,
              type: 'acquisition_1',
              level: 4000,
              k: 2,
              counts: [1, 1],
              wrong_counts: null,
              cut_offsets: [10, 20],
            },
            {
              id: 1,
              type: 'reasoning',
              level: 4000,
              k: 2,
              counts: [2, 3],
              wrong_counts: [3, 4],
              cut_offsets: [5, 9],
            },
          ],
          general: [
            {
              id: 0,
              type: 'acquisition_inc',
              level: 8000,
              k: 3,
              counts: [1, 2, 3],
              wrong_counts: null,
              cut_offsets: [1, 2, 3],
            },
          ],
        }),
      ),
    );
    await fuzzFolder({
      source,
      files: ['draws.json'],
      load: (folder) => loadCountingDraws(join(folder, 'draws.json')),
    });
  });

  it('the published outputs and the case alternatives', async () => {
    const source = join(ROOT, 'test', 'e2e', 'fixtures', 'published-release');
    await fuzzFolder({
      source,
      files: filesUnder(source).filter((file) => file !== 'README.md'),
      runs: 250,
      load: (folder) => {
        readPublishedOutputs({ folder, datasetFolder: join(folder, 'dataset') });
        loadCaseAlternatives(join(folder, 'dataset'));
      },
    });
  });
});

describe('dataset files, configs and model folders never throw anything but a MedbenchError', () => {
  it('a dataset file', async () => {
    const sample = (id: string, task: string, gold: Record<string, unknown>): Sample => ({
      id,
      suite: 'medodyssey',
      task,
      params: { language: 'en', level: 4000, depth: 0 },
      prompt: `Context for ${id}.`,
      promptChars: 16,
      promptTokens: { o200k_base: 5 },
      gold,
    });
    const source = await folderWith('dataset', async (folder) => {
      await writeDataset({
        path: join(folder, 'd.jsonl'),
        header: {
          suite: 'medodyssey',
          createdAt: 'now',
          generator: 'fuzz',
          build: {},
          tokenizers: ['o200k_base'],
        },
        samples: [
          sample('a', 'niah', { answers: ['x'] }),
          sample('b', 'counting', { counts: [1, 2] }),
          sample('c', 'kg', { items: ['p', 'q'] }),
        ],
      });
    });
    await fuzzFolder({
      source,
      files: ['d.jsonl'],
      runs: 200,
      load: (folder) => readDataset(join(folder, 'd.jsonl')),
    });
  });

  it('a config file', async () => {
    const source = await folderWith('config', (folder) =>
      writeFileSync(
        join(folder, 'medbench.config.json'),
        JSON.stringify({
          defaults: { concurrency: 4, maxRetries: 3, timeoutMs: 60000, maxRetryWaitMs: 60000 },
          models: {
            local: {
              provider: 'openai-compatible',
              model: 'qwen',
              endpoints: [
                { baseURL: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'LOCAL_KEY', concurrency: 2 },
                { baseURL: 'http://127.0.0.1:8001/v1' },
              ],
              temperature: 0,
              maxOutputTokens: 512,
              contextWindow: 32768,
              tokenizer: 'o200k_base',
            },
            claude: { provider: 'anthropic', model: 'claude-3-haiku-20240307' },
          },
        }),
      ),
    );
    await fuzzFolder({
      source,
      files: ['medbench.config.json'],
      runs: 200,
      load: (folder) => loadConfig(join(folder, 'medbench.config.json')),
    });
  });

  it('a local ONNX model folder (tokenizer.json, tokenizer_config.json, model.onnx), loaded and used', async () => {
    const source = writeTinyOnnxModel();
    try {
      await fuzzFolder({
        source,
        files: filesUnder(source),
        runs: 60,
        load: (folder) =>
          new LocalOnnxEmbeddingModel({ folder, pooling: 'mean' }).embed({ values: ['fever cough'] }),
      });
    } finally {
      rmSync(source, { recursive: true, force: true });
    }
  });
});

describe('a GGUF model file never reaches llama.cpp damaged in a way the header check can see', () => {
  it('readGgufHeader: counts, lengths, offsets and the vocabulary of edited copies', async () => {
    const source = await folderWith('gguf', (folder) => void writeTinyGgufModel(join(folder, 'model.gguf')));
    await fuzzFolder({
      source,
      files: ['model.gguf'],
      runs: 400,
      // The header is the first 6.9 kB of the file (the rest is weights).
      edit: fc.oneof(anEdit, aNumberEdit(6_900), aNumberEdit(6_900)),
      load: (folder) => readGgufHeader(join(folder, 'model.gguf')),
    });
  });
});

describe('CLUE loaders never throw anything but a MedbenchError', () => {
  const clue = folderWith('clue', writeClueFixtures);
  const cases: Array<[string, string, (path: string) => unknown]> = [
    ['MedNLI', 'mli_test_v1.jsonl', loadMedNli],
    ['MeQSum (xlsx)', 'MeQSum_fixture.xlsx', loadMeQSum],
    ['Problem Summary (CSV)', 'BioNLP2023-1A-Test.csv', loadProblemSummary],
    ['LongHealth', 'benchmark_v5.json', loadLongHealth],
    ['MeDiSumQA', 'MeDiSumQA.json', loadMeDiSumQa],
    ['MeDiSumCode', 'MeDiSumCode.json', loadMeDiSumCode],
    ['ICD-10-CM codes', 'icd10cm_codes_2024.txt', loadIcd10Codes],
    ['MRCONSO.RRF', 'MRCONSO.RRF', loadMrconso],
  ];
  it.each(cases)('%s', async (_name, file, load) => {
    await fuzzFolder({ source: await clue, files: [file], load: (folder) => load(join(folder, file)) });
  });
});

describe('MedEureka loaders never throw anything but a MedbenchError', () => {
  const forms: Array<[string, string]> = [
    ['the plain form', join(samples, 'medeureka')],
    ['the Parquet copy', join(ROOT, 'test', 'fixtures', 'medeureka', 'parquet')],
    ['the save_to_disk folder (Arrow)', join(ROOT, 'test', 'fixtures', 'medeureka', 'save-to-disk')],
  ];
  it.each(forms)('%s', async (_name, source) => {
    await fuzzFolder({
      source,
      files: filesUnder(source).filter((file) => file !== 'README.md'),
      runs: 200,
      load: (folder) => loadMedEurekaRelease(folder),
    });
  });
});
