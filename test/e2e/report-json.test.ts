import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDocumentSchema } from '../../src/compose/report-document.js';
import { suiteNamed } from '../../src/compose/suites.js';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { jsonSchemaErrors } from '../support/json-schema-check.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, temporaryHome } from './cli.js';

// Real runs of the three suites in one home: the demo (MedOdyssey's extractive baseline, MedEureka's
// BM25 and LSA), published MedOdyssey outputs imported, a priced chat model on NIAH and on CLUE (with
// generation settings), and CLUE's baseline limited to one item per task.
const scratch = temporaryHome();
const home = temporaryHome();
const clueData = join(scratch, 'clue');
const niah = join(scratch, 'niah.jsonl');
let server: LlmTestServer;
const reportJsonSchemaFile = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8'));

beforeAll(async () => {
  mkdirSync(clueData);
  writeClueFixtures(clueData);
  await buildSampleNiah(niah, '1000');
  // NIAH answers that are no JSON (bad_format); every prompt's first 8 tokens read from the prompt cache.
  server = await startLlmTestServer({
    fallback: () => ({ kind: 'answer', text: 'I cannot tell.', cachedTokens: 8 }),
  });
  const config = join(scratch, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      models: {
        clinical: {
          provider: 'openai-compatible',
          model: 'clinical-7b',
          label: 'Clinical, 7B',
          endpoints: [{ baseURL: `${server.url}/v1` }],
          contextWindow: 8000,
          tokenizer: 'o200k_base',
          temperature: 0,
          topP: 0.9,
          seed: 7,
          prices: { inputPerMillion: 1, outputPerMillion: 2 },
        },
      },
    }),
  );
  const runs = [
    ['demo'],
    ['import', 'medodyssey-outputs', join(ROOT, 'test', 'e2e', 'fixtures', 'published-release')],
    ['run', '--dataset', niah, '--model', 'clinical', '--config', config],
    ['run', 'clue', '--data', clueData, '--model', 'clinical', '--config', config],
    ['run', 'clue', '--data', clueData, '--model', 'baseline', '--limit', '1'],
  ];
  for (const args of runs) {
    const ran = await runCli(['--home', home, ...args]);
    expect(ran.code, `${args.join(' ')}: ${ran.stderr}`).toBe(0);
  }
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

interface RunFields {
  label: string;
  modelId: string | null;
  provider: string | null;
  source: string;
  scoringMode: string;
  statuses: Record<string, number>;
  settings: Record<string, unknown>;
}

/** `report --json` of a suite, checked against the schema `schemas/report.schema.json` is generated from. */
async function reportJson(suite: string, extra: readonly string[] = []) {
  const printed = await runCli(['--home', home, 'report', '--suite', suite, '--json', ...extra]);
  expect(printed.code, printed.stderr).toBe(0);
  const document = JSON.parse(printed.stdout) as unknown;
  // Strict: a field the schema lacks, a missing one, a NaN printed as null each fail here, under
  // the zod schema and under the JSON Schema the package ships.
  reportDocumentSchema(suiteNamed(suite)).parse(document);
  expect(jsonSchemaErrors(reportJsonSchemaFile, document)).toEqual([]);
  return document as {
    schemaVersion: number;
    runs: RunFields[];
    usage: Array<{ label: string; task: string; cachedInputTokens: number | null; listCost: number | null }>;
    limited: Array<{ label: string }>;
    settings: Array<{ label: string; settings: Record<string, unknown> }>;
  };
}

const summaryOf = (run: RunFields) => ({
  label: run.label,
  modelId: run.modelId,
  provider: run.provider,
  source: run.source,
  scoringMode: run.scoringMode,
  statuses: run.statuses,
  settings: run.settings,
});
const chatSettings = { temperature: 0, topP: 0.9, seed: 7 };

describe('report --json of every suite (built CLI)', () => {
  it('MedOdyssey: the schema version, each run with model id, provider, source, scoring mode, statuses and settings', async () => {
    const report = await reportJson('medodyssey');
    expect(report.schemaVersion).toBe(5);
    const byLabel = new Map(report.runs.map((run) => [run.label, summaryOf(run)]));
    expect(byLabel.get('Clinical, 7B')).toEqual({
      label: 'Clinical, 7B',
      modelId: 'clinical-7b',
      provider: 'openai-compatible',
      source: 'evaluated',
      scoringMode: 'standard',
      statuses: { ok: 0, bad_format: 20, too_long: 0, error: 0 },
      settings: expect.objectContaining(chatSettings),
    });
    // The authors' released outputs: published, scored by the published scorer's rules.
    expect(byLabel.get('GPT-4o (published)')).toEqual({
      label: 'GPT-4o (published)',
      modelId: 'gpt-4o',
      provider: 'published',
      source: 'published',
      scoringMode: 'compat',
      statuses: { ok: 11, bad_format: 2, too_long: 5, error: 0 },
      settings: { temperature: 0, maxOutputTokens: 500 },
    });
    expect(byLabel.get('baseline:extractive')).toMatchObject({
      modelId: 'extractive',
      provider: 'baseline',
      settings: {},
    });
    expect(report.usage.find((row) => row.label === 'Clinical, 7B')).toMatchObject({
      task: 'niah',
      cachedInputTokens: 8 * 20,
      listCost: expect.any(Number),
    });
  });

  it('CLUE: the same fields per run (none before), the limited run, the settings section', async () => {
    const report = await reportJson('clue');
    expect(report.schemaVersion).toBe(5);
    const [clinical, baseline] = report.runs.map(summaryOf);
    expect(clinical).toEqual({
      label: 'Clinical, 7B',
      modelId: 'clinical-7b',
      provider: 'openai-compatible',
      source: 'evaluated',
      scoringMode: 'standard',
      statuses: expect.objectContaining({ too_long: 0, error: 0 }),
      settings: expect.objectContaining(chatSettings),
    });
    expect(Object.values(clinical!.statuses).reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
    expect(baseline).toEqual({
      label: 'baseline',
      modelId: 'clue-baseline',
      provider: 'baseline',
      source: 'evaluated',
      scoringMode: 'standard',
      statuses: { ok: expect.any(Number), bad_format: 0, too_long: 0, error: 0 },
      settings: {},
    });
    expect(report.limited.map((run) => run.label)).toEqual(['baseline']);
    expect(report.settings.map((run) => run.label)).toEqual(['Clinical, 7B']);
    // Figure 5's differences (`--base`) are part of the document and of its schema.
    const based = (await reportJson('clue', ['--base', 'baseline'])) as unknown as {
      base: { label: string; differences: Array<{ label: string }> };
    };
    expect(based.base.label).toBe('baseline');
    expect(based.base.differences.map((difference) => difference.label)).toEqual(['Clinical, 7B']);
  });

  it('MedEureka: the same fields per run, the retriever named as the model id', async () => {
    const report = await reportJson('medeureka');
    expect(report.schemaVersion).toBe(5);
    expect(report.runs.map(summaryOf)).toEqual(
      ['bm25', 'lsa'].map((name) => ({
        label: name,
        modelId: name,
        provider: null,
        source: 'evaluated',
        scoringMode: 'standard',
        statuses: { ok: 18, bad_format: 0, too_long: 0, error: 0 },
        settings: {},
      })),
    );
  });
});

/** The records of a CSV text (RFC 4180: quoted fields may hold commas, quotes doubled, line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const next = text[index + 1];
    if (quoted && char === '"' && next === '"') {
      field += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (quoted) field += char;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && next === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      index++;
    } else field += char;
  }
  expect(field + record.join(''), 'the last record ends in CRLF').toBe('');
  return records;
}

/** A text report line as cells: the columns are 2 or more spaces apart (a label has single spaces). */
const cellsOf = (line: string) => line.split(/ {2,}/).join('|');

describe('report --csv <folder> of every suite (built CLI)', () => {
  it.each([
    [
      'medodyssey',
      [
        ...['niah-en-esm', 'niah-zh-esm', 'counting-esm', 'niah-en-ssm', 'niah-zh-ssm', 'counting-ssm'],
        ...['medical-esm', 'medical-ssm', 'medical-by-level-esm', 'medical-by-level-ssm'],
        ...[
          'niah-errors-esm',
          'niah-errors-ssm',
          'effective-length',
          'intervals-esm',
          'needle-overlap',
          'niah-by-overlap',
          'usage',
        ],
      ],
    ],
    ['clue', ['level-1', 'level-2', 'intervals', 'usage']],
    ['clue --base baseline', ['level-1', 'level-2', 'difference', 'intervals', 'usage']],
    [
      'medeureka',
      [
        'mrr-10',
        'hr-10',
        'mrr-10-by-data-type',
        'mrr-10-by-language',
        'mrr-10-by-granularity',
        'intervals',
        'mteb',
      ],
    ],
  ])(
    '%s: a CSV per table the text shows, its cells as shown, the paths on stdout',
    async (command, names) => {
      const [suite, ...extra] = command.split(' ') as [string, ...string[]];
      const folder = join(scratch, `csv-${command.replaceAll(' ', '-')}`);
      const written = await runCli(['--home', home, 'report', '--suite', suite, ...extra, '--csv', folder]);
      expect(written.code, written.stderr).toBe(0);
      const paths = written.stdout.trim().split('\n');
      expect(paths).toEqual(names.map((name) => join(folder, `${suite}-${name}.csv`)));
      // Each table whole (--width 0): the CSV holds the table a wide terminal shows unsplit.
      const text = (await runCli(['--home', home, 'report', '--suite', suite, ...extra, '--width', '0']))
        .stdout;
      const lines = text.split('\n');
      // The tables come in the text's order (MRR@10's and HR@10's share a header): each after the last.
      let after = -1;
      for (const path of paths) {
        expect(existsSync(path)).toBe(true);
        const records = parseCsv(readFileSync(path, 'utf8'));
        expect(records.length).toBeGreaterThan(1);
        expect(new Set(records.map((record) => record.length)).size, `${path}: one width`).toBe(1);
        // The text report's table with the same header: the same rows, cell for cell.
        const at = lines.findIndex((line, index) => index > after && cellsOf(line) === records[0]!.join('|'));
        after = at;
        expect(at, `${path}: its header in the text report`).toBeGreaterThanOrEqual(0);
        expect(lines[at + 1]).toMatch(/^-+( +-+)*$/);
        // The text's lines of 95% intervals under its rows are not in the CSV (its values stay numbers).
        const shown = lines
          .slice(at + 2)
          .filter((line) => !/^\s+(?:\[[^\]]*\]\s*)+$/.test(line))
          .slice(0, records.length - 1)
          .map(cellsOf);
        expect(shown).toEqual(records.slice(1).map((record) => record.join('|').replace(/\|+$/, '')));
      }
      if (suite === 'clue') expect(readFileSync(paths[0]!, 'utf8')).toContain('\r\n"Clinical, 7B",');
    },
  );

  it('a --csv path through a file is a clear error naming the file to write, and writes nothing', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    const refused = await runCli(['--home', home, 'report', '--suite', 'medeureka', '--csv', file]);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain(
      `error [FILE_ERROR] Cannot write ${join(file, 'medeureka-mrr-10.csv')}: a part of the path is a file, not a folder`,
    );
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });
});
