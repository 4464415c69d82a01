import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { type LlmTestServer, startLlmTestServer } from '../support/llm-test-server.js';
import { buildSampleNiah, ROOT, runCli, startCli, temporaryHome } from './cli.js';
import { storeDigest } from './store-snapshot.js';

/**
 * Bad input, one row per case: the command, the exit code (2: usage, 1: anything else), what
 * stderr must say, and always: one error line, no stack trace, the store exactly as it was.
 */

const home = temporaryHome();
const emptyHome = temporaryHome();
const scratch = mkdtempSync(join(tmpdir(), 'medbench-table-'));
const at = (name: string) => join(scratch, name);
const samples = join(ROOT, 'samples', 'medodyssey');
const dataset = at('small.jsonl');
let server: LlmTestServer;
let before: string;

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const badUtf8 = (lines: string[], broken: number) =>
  Buffer.concat(
    lines.map((line, index) =>
      index === broken - 1
        ? Buffer.concat([Buffer.from(line), Buffer.from([0xc3, 0x28]), Buffer.from('\n')])
        : Buffer.from(`${line}\n`),
    ),
  );

beforeAll(async () => {
  server = await startLlmTestServer({
    fallback: (request) =>
      request.path.startsWith('/missing')
        ? { kind: 'status', status: 404, body: '{"error": "model not found"}' }
        : { kind: 'status', status: 401 },
  });
  await buildSampleNiah(dataset);
  expect((await runCli(['--home', home, 'demo'])).code).toBe(0);
  before = storeDigest(home);

  // Dataset files.
  const [header, ...lines] = readFileSync(dataset, 'utf8').trimEnd().split('\n');
  writeFileSync(at('empty.jsonl'), '');
  writeFileSync(at('header-only.jsonl'), `${header}\n`);
  writeFileSync(at('not-json.jsonl'), `${header}\n${lines[0]}\n{"id": "x", oops\n`);
  writeFileSync(at('bad-header.jsonl'), `{"medbenchDataset": 99}\n${lines[0]}\n`);
  writeFileSync(
    at('missing-field.jsonl'),
    `${header}\n${JSON.stringify({ ...JSON.parse(lines[0]!), gold: undefined, prompt: undefined })}\n`,
  );
  writeFileSync(at('duplicate.jsonl'), `${header}\n${lines[0]}\n${lines[0]}\n`);
  writeFileSync(at('utf16.jsonl'), utf16(`${header}\n${lines[0]}\n`));
  writeFileSync(at('bad-utf8.jsonl'), badUtf8([header!, lines[0]!, lines[1]!], 3));
  writeFileSync(
    at('other-suite.jsonl'),
    `${header!.replace('"suite":"medodyssey"', '"suite":"nosuch"')}\n${lines[0]}\n`,
  );
  mkdirSync(at('a-folder'));
  writeFileSync(at('a-file'), 'not a folder');

  // Configs.
  const config = (name: string, body: string | Buffer) => writeFileSync(at(name), body);
  config('config-syntax.json', '{\n  "models": {\n    "m": { "provider": "openai-compatible", }\n  }\n}\n');
  config('config-utf16.json', utf16('{"models": {}}'));
  config(
    'config-ftp.json',
    JSON.stringify({
      models: { m: { provider: 'openai-compatible', model: 'm', endpoints: [{ baseURL: 'ftp://host/v1' }] } },
    }),
  );
  config('config-unknown.json', JSON.stringify({ models: {}, colour: 'blue' }));
  config('config-retries.json', JSON.stringify({ defaults: { maxRetries: -1 } }));
  config('config-concurrency.json', JSON.stringify({ defaults: { concurrency: 2.5 } }));
  config(
    'config-temperature.json',
    JSON.stringify({ models: { m: { provider: 'openai', model: 'gpt-4o', temperature: 9 } } }),
  );

  // A release copy with broken needles, draws and prompts.
  const release = (name: string) => {
    const copy = at(name);
    cpSync(samples, copy, { recursive: true });
    return join(copy, 'dataset', 'task_data', 'needles', 'en_pure_needles.json');
  };
  writeFileSync(release('needles-syntax'), '[\n  {"needle": "x",\n   "input": "q"\n');
  writeFileSync(
    release('needles-type'),
    JSON.stringify([{ needle: 'x', input: 'q', ground_truth: ['a'], type: 'gossip', id: 0 }]),
  );
  writeFileSync(release('needles-utf16'), utf16('[]'));
  writeFileSync(
    release('needles-shape'),
    JSON.stringify([{ needle: 'x', input: 'q', ground_truth: 'a', type: 'general', id: 0 }]),
  );
  writeFileSync(at('draws-syntax.json'), '{"medical": [');
  writeFileSync(at('draws-shape.json'), JSON.stringify({ medical: 'no' }));
  writeFileSync(at('prompts-syntax.json'), '{"kg": ');

  // CLUE folders.
  const clue = (name: string) => {
    const folder = at(name);
    mkdirSync(folder);
    writeClueFixtures(folder);
    return folder;
  };
  clue('clue-ok');
  writeFileSync(
    join(clue('clue-mednli-json'), 'mli_test_v1.jsonl'),
    '{"sentence1": "a", "sentence2": "b", "gold_label": "entailment"}\n{oops}\n',
  );
  writeFileSync(
    join(clue('clue-mednli-label'), 'mli_test_v1.jsonl'),
    '{"sentence1": "a", "sentence2": "b", "gold_label": "maybe"}\n',
  );
  writeFileSync(
    join(clue('clue-mednli-utf8'), 'mli_test_v1.jsonl'),
    badUtf8(
      [
        '{"sentence1": "a", "sentence2": "b", "gold_label": "entailment"}',
        '{"sentence1": "c", "sentence2": "d", "gold_label": "neutral"}',
      ],
      2,
    ),
  );
  writeFileSync(join(clue('clue-longhealth'), 'benchmark_v5.json'), JSON.stringify({ p1: { texts: {} } }));
  writeFileSync(join(clue('clue-medisumcode'), 'MeDiSumCode.json'), JSON.stringify([{ text: 'x' }]));
  writeFileSync(join(clue('clue-csv'), 'BioNLP2023-1A-Test.csv'), 'File ID,Subjectives\nn0,"unterminated\n');
  writeFileSync(join(clue('clue-xlsx'), 'MeQSum_fixture.xlsx'), 'this is not a zip file');
  mkdirSync(at('clue-none'));
  writeFileSync(at('icd-bad.txt'), 'E119    Type 2 diabetes\nthis is not a code line\n');
  writeFileSync(at('mrconso-bad.RRF'), 'C0020538|ENG|P|too few fields|\n');
  writeFileSync(at('entities-bad.jsonl'), '{"id": 1}\n');
  writeFileSync(at('entities-ok.jsonl'), '{"id": "x", "prediction": [], "reference": []}\n');
  writeFileSync(at('results-not-json.jsonl'), '{"custom_id": "a", oops\n');
  writeFileSync(
    at('results-stranger.jsonl'),
    `${JSON.stringify({ custom_id: 'request-1', response: { status_code: 200, body: {} }, error: null })}\n`,
  );

  // MedEureka folders.
  const eureka = (name: string, files: Record<string, string | Buffer>) => {
    const folder = at(name);
    mkdirSync(join(folder, 'data'), { recursive: true });
    for (const [file, content] of Object.entries(files)) writeFileSync(join(folder, file), content);
    return folder;
  };
  const parquet = join(ROOT, 'test', 'fixtures', 'medeureka', 'parquet', 'data');
  const corpus = readFileSync(join(parquet, 'corpus-00000-of-00001.parquet'));
  const test = readFileSync(join(parquet, 'test-00000-of-00001.parquet'));
  eureka('eureka-truncated', {
    'data/corpus-00000-of-00001.parquet': corpus.subarray(0, Math.floor(corpus.length / 2)),
    'data/test-00000-of-00001.parquet': test,
  });
  eureka('eureka-text', {
    'data/corpus-00000-of-00001.parquet': 'hello, I am text',
    'data/test-00000-of-00001.parquet': test,
  });
  eureka('eureka-empty', {
    'data/corpus-00000-of-00001.parquet': '',
    'data/test-00000-of-00001.parquet': test,
  });
  eureka('eureka-plain-json', { 'queries.jsonl': '{"task": "x"\n', 'corpus.json': '{}' });
  eureka('eureka-plain-corpus', { 'queries.jsonl': '', 'corpus.json': '[1, 2' });
  mkdirSync(at('eureka-none'));
  eureka('eureka-plain', {
    'queries.jsonl': '{"task": "AskAPatient_en", "query": "sore head", "targets": ["Headache"]}\n',
    'corpus.json': JSON.stringify({ AskAPatient_en: ['Headache', 'Nausea'] }),
  });

  // Published outputs.
  const published = (name: string, file: string, content: string | Buffer) => {
    const folder = at(name);
    mkdirSync(join(folder, 'evaluation_result', 'niah_result'), { recursive: true });
    writeFileSync(join(folder, 'evaluation_result', 'niah_result', file), content);
    return folder;
  };
  const niahLine = {
    idx: 0,
    type: 'general',
    pred_answer: '',
    pred_origin: 'x',
    'position(%)': 0,
    'length(origin)': 4000,
    model: 'm',
    note: '',
  };
  published('published-syntax', 'en_m_v1.jsonl', `${JSON.stringify(niahLine)}\n{"idx": \n`);
  published(
    'published-field',
    'en_m_v1.jsonl',
    `${JSON.stringify({ ...niahLine, 'position(%)': 'middle' })}\n`,
  );
  published('published-utf16', 'en_m_v1.jsonl', utf16(`${JSON.stringify(niahLine)}\n`));
  published('published-empty', 'en_m_v1.jsonl', '');
});

afterAll(async () => {
  await server.close();
  for (const folder of [home, emptyHome, scratch]) rmSync(folder, { recursive: true, force: true });
});

interface Case {
  name: string;
  args: () => string[];
  code: 1 | 2;
  says: Array<string | RegExp>;
  environment?: NodeJS.ProcessEnv;
  /** Another home than the demo one (whose store must stay as it was). */
  home?: string;
  /** The command must end within this long (it is killed then, and the case fails). */
  withinMs?: number;
}

const run = (...extra: string[]) => ['run', '--dataset', dataset, '--model', 'baseline', ...extra];
const build = (...extra: string[]) => [
  'build',
  'medodyssey',
  '--data',
  samples,
  '--out',
  at('out.jsonl'),
  ...extra,
];
const eureka =
  (folder: string, model = 'bm25') =>
  () => ['run', 'medeureka', '--data', folder, '--model', model];
const clueRun = (folder: string, ...extra: string[]) => [
  'run',
  'clue',
  '--data',
  at(folder),
  '--model',
  'baseline',
  ...extra,
];
const usage = (name: string, args: string[], says: string | RegExp): Case => ({
  name,
  args: () => args,
  code: 2,
  says: [says],
});
const failure = (name: string, args: () => string[], ...says: Array<string | RegExp>): Case => ({
  name,
  args,
  code: 1,
  says,
});

const CASES: Case[] = [
  // Options: type, range, integer, choices (exit 2, commander's usage).
  usage('--concurrency 0', run('--concurrency', '0'), 'not a whole number from 1 to 1024'),
  usage('--concurrency abc', run('--concurrency', 'abc'), '"abc" is not a whole number'),
  usage('--concurrency 2.5', run('--concurrency', '2.5'), '"2.5" is not a whole number'),
  usage('--concurrency 5000', run('--concurrency', '5000'), 'from 1 to 1024'),
  usage('--concurrency empty', run('--concurrency', ''), 'is not a whole number'),
  usage('--timeout-ms -5', run('--timeout-ms', '-5'), 'at least 1'),
  usage('--timeout-ms 0', run('--timeout-ms', '0'), 'at least 1'),
  usage('--timeout-ms 1e400', run('--timeout-ms', '1e400'), 'is not a whole number'),
  usage('--max-output-tokens 0', run('--max-output-tokens', '0'), 'at least 1'),
  usage('--max-output-tokens 0x10', run('--max-output-tokens', '0x10'), 'is not a whole number'),
  usage('--max-retries abc', run('--max-retries', 'abc'), 'from 0 to 100'),
  usage('--max-retries -1', run('--max-retries', '-1'), 'from 0 to 100'),
  usage('--max-retries 1000000', run('--max-retries', '1000000'), 'from 0 to 100'),
  usage('--temperature abc', run('--temperature', 'abc'), 'is not a number from 0 to 2'),
  usage('--temperature 7', run('--temperature', '7'), 'from 0 to 2'),
  usage('--temperature -0.1', run('--temperature', '-0.1'), 'from 0 to 2'),
  usage('--temperature NaN', run('--temperature', 'NaN'), 'is not a number'),
  usage('--context-window 1.5', run('--context-window', '1.5'), 'is not a whole number'),
  usage('--context-window 0', run('--context-window', '0'), 'at least 1'),
  usage('--max-retry-wait-ms -1', run('--max-retry-wait-ms', '-1'), 'at least 0'),
  usage('--sample-timeout-ms 0', run('--sample-timeout-ms', '0'), 'at least 1'),
  usage('--limit 0', clueRun('clue-ok', '--limit', '0'), 'at least 1'),
  usage('--seed -1', clueRun('clue-ok', '--seed', '-1'), 'at least 0'),
  usage('--bertscore-layer x', clueRun('clue-ok', '--bertscore-layer', 'x'), 'from 0 to 100'),
  usage(
    '--protocol paper-2023',
    clueRun('clue-ok', '--protocol', 'paper-2023'),
    'Allowed choices are paper-2024, repo-2025',
  ),
  usage(
    '--batch-size 0',
    ['run', 'medeureka', '--data', at('eureka-none'), '--model', 'bm25', '--batch-size', '0'],
    'at least 1',
  ),
  usage(
    '--dimensions abc',
    ['run', 'medeureka', '--data', at('eureka-none'), '--model', 'bm25', '--dimensions', 'abc'],
    'is not a whole number',
  ),
  usage(
    '--max-length 0',
    ['run', 'medeureka', '--data', at('eureka-none'), '--model', 'bm25', '--max-length', '0'],
    'at least 1',
  ),
  usage(
    '--pooling avg',
    ['run', 'medeureka', '--data', at('eureka-none'), '--model', 'bm25', '--pooling', 'avg'],
    'Allowed choices are cls, mean, last-token',
  ),
  usage(
    '--encoding hex',
    ['run', 'medeureka', '--data', at('eureka-none'), '--model', 'bm25', '--encoding', 'hex'],
    'Allowed choices are float, base64',
  ),
  usage('view --port abc', ['view', '--port', 'abc'], 'from 0 to 65535'),
  usage('view --port 70000', ['view', '--port', '70000'], 'from 0 to 65535'),
  usage('view --reviewer "  "', ['view', '--reviewer', '  '], '--reviewer "  " is empty'),
  usage('view --reviewer <b>', ['view', '--reviewer', '<b>'], 'other than letters, digits, spaces'),
  usage('view --double-share 2', ['view', '--double-share', '2'], 'a number from 0 to 1'),
  usage(
    'report --suite nope',
    ['report', '--suite', 'nope'],
    'Allowed choices are medodyssey, clue, medeureka',
  ),
  usage('report --metric f1', ['report', '--metric', 'f1'], 'Allowed choices are esm, ssm'),
  usage('build --mic fast', build('--mic', 'fast'), 'Allowed choices are ratio, exact, per-model'),
  usage('build --haystack web', build('--haystack', 'web'), 'Allowed choices are medical, generic'),
  usage(
    'ratios --haystack web',
    ['ratios', '--data', samples, '--haystack', 'web'],
    'Allowed choices are medical, generic',
  ),
  usage(
    'triples --threshold abc',
    [
      'export',
      'medeureka-triples',
      '--data',
      at('x'),
      '--model',
      'bm25',
      '--out',
      at('t.jsonl'),
      '--threshold',
      'abc',
    ],
    'is not a number',
  ),
  usage(
    'triples --negatives 0',
    [
      'export',
      'medeureka-triples',
      '--data',
      at('x'),
      '--model',
      'bm25',
      '--out',
      at('t.jsonl'),
      '--negatives',
      '0',
    ],
    'at least 1',
  ),
  usage(
    'triples --format csv',
    [
      'export',
      'medeureka-triples',
      '--data',
      at('x'),
      '--model',
      'bm25',
      '--out',
      at('t.jsonl'),
      '--format',
      'csv',
    ],
    'Allowed choices are triplet, n-tuple',
  ),
  usage(
    'run without --model',
    ['run', '--dataset', dataset],
    "required option '--model <spec>' not specified",
  ),
  usage('an unknown option', run('--colour', 'blue'), "unknown option '--colour'"),
  usage('an unknown command', ['frobnicate'], "unknown command 'frobnicate'"),
  usage('run clue without --data', ['run', 'clue', '--model', 'baseline'], 'run clue needs --data'),
  usage(
    'run medeureka without --data',
    ['run', 'medeureka', '--model', 'bm25'],
    'run medeureka needs --data',
  ),
  usage(
    'run medeureka with --dataset (a suite run takes --data)',
    ['run', 'medeureka', '--model', 'bm25', '--data', '.', '--dataset', 'x.jsonl'],
    'run medeureka builds its items from --data; --dataset is for a built dataset file',
  ),
  usage('run without --dataset', ['run', '--model', 'baseline'], 'run needs --dataset'),
  usage('an unknown suite', ['run', 'weird', '--model', 'baseline'], 'Unknown suite "weird"'),
  usage('build --depths 150', build('--depths', '150'), '"150" is not a whole number from 0 to 100'),
  usage('build --depths -5', build('--depths', '-5'), 'from 0 to 100'),
  usage('build --levels abc', build('--levels', 'abc'), '"abc" is not a number'),
  usage('build --levels 0', build('--levels', '0'), 'at least 1'),
  usage('build --needles 1.5', build('--needles', '1.5'), 'is not a whole number'),
  usage(
    'build --kg-questions 0',
    [
      'build',
      'medodyssey',
      '--sources',
      join(ROOT, 'samples', 'medodyssey-sources'),
      '--task',
      'kg',
      '--out',
      at('o.jsonl'),
      '--kg-questions',
      '0',
    ],
    'from 1 to 100000',
  ),
  usage('build --gamma-en 0', build('--gamma-en', '0'), '--gamma-en'),
  usage('build --counting-sentences 0', build('--counting-sentences', '0'), 'MIN-MAX'),
  usage('build --counting-sentences 5-3', build('--counting-sentences', '5-3'), 'MIN-MAX'),
  usage('build --counting-types nope', build('--counting-types', 'nope'), 'is not one of'),
  usage('build --lang fr', build('--lang', 'fr'), '"fr" is not one of en, zh'),
  usage('build --task nosuch', build('--task', 'nosuch'), '"nosuch" is not one of'),
  usage('run --task nosuch', run('--task', 'nosuch'), 'the dataset has no samples of nosuch; it has niah'),
  usage('a folder as --dataset', ['run', '--dataset', at('a-folder'), '--model', 'baseline'], 'is a folder'),
  usage('clue --tasks nosuch', clueRun('clue-ok', '--tasks', 'nosuch'), '"nosuch" is not one of'),

  // Accepted before, though nothing could be done with them.
  usage(
    'build --needles 999',
    build('--needles', '999', '--task', 'niah', '--lang', 'en', '--levels', '1000'),
    '--needles 999: the en needles file has no such id (its ids: 0–',
  ),
  usage(
    '--api-key-env with a space',
    run('--api-key-env', 'BAD NAME'),
    '"BAD NAME" is not an environment variable name',
  ),
  ...(['parquet', 'save-to-disk'] as const).map((layout) =>
    usage(
      `triples --split nosuch (${layout})`,
      [
        ...['export', 'medeureka-triples', '--data', join(ROOT, 'test', 'fixtures', 'medeureka', layout)],
        ...['--model', 'bm25', '--out', at('t.jsonl'), '--split', 'nosuch'],
      ],
      new RegExp(`--split nosuch: .*${layout} has no "nosuch" split \\(its splits: corpus, test\\)`),
    ),
  ),
  usage(
    'triples --split train (plain form)',
    [
      ...['export', 'medeureka-triples', '--data', at('eureka-plain'), '--model', 'bm25'],
      ...['--out', at('t.jsonl'), '--split', 'train'],
    ],
    '--split train: ',
  ),
  failure(
    'build kg from a missing sources folder',
    () => ['build', 'medodyssey', '--sources', at('no-sources'), '--task', 'kg', '--out', at('o.jsonl')],
    '[DATA_NOT_FOUND] Knowledge sources folder not found',
    'no-sources',
  ),
  failure(
    'build kg from an empty sources folder',
    () => ['build', 'medodyssey', '--sources', at('a-folder'), '--task', 'kg', '--out', at('o.jsonl')],
    '[DATA_NOT_FOUND] kg cannot be built',
    'kg-triplets.en.txt, kg-triplets.zh.txt',
  ),
  failure(
    'published files without an output',
    () => ['import', 'medodyssey-outputs', at('published-empty')],
    '[DATA_INVALID]',
    'hold no outputs: not one line in niah_result/en_m_v1.jsonl',
  ),
  failure(
    'a model URL with port 99999',
    () => ['run', '--dataset', dataset, '--model', 'openai-compatible:m@http://user:pw@127.0.0.1:99999/v1'],
    '[MODEL_SPEC_INVALID] The base URL http://127.0.0.1:99999/v1 in the model spec',
    'a port from 0 to 65535',
  ),

  // Dataset files (exit 1, DATA_*).
  failure(
    'a missing dataset',
    () => ['run', '--dataset', at('none.jsonl'), '--model', 'baseline'],
    '[DATA_NOT_FOUND]',
    'none.jsonl',
    // Generic code names no suite: the hint points to the build commands, whichever suite it is.
    "its suite's build command (`medbench build --help`)",
  ),
  failure(
    'an empty dataset',
    () => ['run', '--dataset', at('empty.jsonl'), '--model', 'baseline'],
    'the file is empty',
  ),
  failure(
    'a header-only dataset',
    () => ['run', '--dataset', at('header-only.jsonl'), '--model', 'baseline'],
    'holds no samples',
    "its suite's build command (`medbench build --help`)",
  ),
  failure(
    'a dataset line that is not JSON',
    () => ['run', '--dataset', at('not-json.jsonl'), '--model', 'baseline'],
    'not-json.jsonl:3: not valid JSON',
  ),
  failure(
    'a dataset without its header',
    () => ['run', '--dataset', at('bad-header.jsonl'), '--model', 'baseline'],
    'bad-header.jsonl:1: not a medbench dataset header',
  ),
  failure(
    'a sample without a field',
    () => ['run', '--dataset', at('missing-field.jsonl'), '--model', 'baseline'],
    'missing-field.jsonl:2: sample field',
  ),
  failure(
    'a repeated sample id',
    () => ['run', '--dataset', at('duplicate.jsonl'), '--model', 'baseline'],
    'duplicate.jsonl:3: duplicate sample id',
  ),
  failure(
    'a UTF-16 dataset',
    () => ['run', '--dataset', at('utf16.jsonl'), '--model', 'baseline'],
    'utf16.jsonl: the file is UTF-16, not UTF-8',
    'iconv',
  ),
  failure(
    'invalid UTF-8 in a dataset',
    () => ['run', '--dataset', at('bad-utf8.jsonl'), '--model', 'baseline'],
    'bad-utf8.jsonl:3: the line is not valid UTF-8',
  ),
  failure(
    'a dataset of an unknown suite',
    () => ['run', '--dataset', at('other-suite.jsonl'), '--model', 'baseline'],
    'unknown suite "nosuch"',
  ),

  // Configs and model specs.
  failure(
    'a config with a JSON syntax error',
    () => run('--config', at('config-syntax.json')),
    '[CONFIG_INVALID]',
    'config-syntax.json:3:',
  ),
  failure('a UTF-16 config', () => run('--config', at('config-utf16.json')), '[CONFIG_INVALID]', 'UTF-16'),
  failure(
    'an ftp:// base URL',
    () => ['run', '--dataset', dataset, '--model', 'm', '--config', at('config-ftp.json')],
    'must be an http:// or https:// URL',
  ),
  failure(
    'an unknown config field',
    () => run('--config', at('config-unknown.json')),
    '[CONFIG_INVALID]',
    'colour',
  ),
  failure(
    'negative retries in a config',
    () => run('--config', at('config-retries.json')),
    'defaults.maxRetries',
  ),
  failure(
    'fractional concurrency in a config',
    () => run('--config', at('config-concurrency.json')),
    'defaults.concurrency',
  ),
  failure(
    'a temperature of 9 in a config',
    () => run('--config', at('config-temperature.json')),
    'models.m.temperature',
  ),
  failure('a missing config', () => run('--config', at('no-config.json')), 'Config file not found'),
  failure(
    'an unknown model spec',
    () => ['run', '--dataset', dataset, '--model', 'gpt-9000'],
    '[MODEL_SPEC_INVALID]',
    'openai-compatible:',
  ),
  failure(
    'an ftp:// model URL',
    () => ['run', '--dataset', dataset, '--model', 'openai-compatible:m@ftp://host/v1'],
    '[MODEL_SPEC_INVALID]',
  ),
  failure(
    'an empty openai model',
    () => ['run', '--dataset', dataset, '--model', 'openai:'],
    '[MODEL_SPEC_INVALID]',
  ),
  failure(
    'an unknown baseline',
    () => ['run', '--dataset', dataset, '--model', 'baseline:oracle'],
    'Unknown baseline "oracle"',
  ),
  failure(
    'a missing Anthropic key',
    () => ['run', '--dataset', dataset, '--model', 'anthropic:claude-3-haiku-20240307'],
    '[MISSING_SECRET]',
    'ANTHROPIC_API_KEY',
  ),
  failure(
    'a missing OpenAI key',
    () => ['run', '--dataset', dataset, '--model', 'openai:gpt-4o'],
    '[MISSING_SECRET]',
    'OPENAI_API_KEY',
  ),
  failure('an unknown tokenizer', () => run('--tokenizer', 'nonsense'), '[TOKENIZER_UNKNOWN]', 'o200k_base'),
  failure(
    'an unknown build tokenizer',
    () => build('--tokenizers', 'o200k_base,nonsense'),
    '[TOKENIZER_UNKNOWN]',
    'nonsense',
  ),

  // Endpoints that refuse.
  {
    name: 'a 401 names the URL and the key variable',
    args: () => [
      'run',
      '--dataset',
      dataset,
      '--model',
      `openai-compatible:m@${server.url}/v1`,
      '--api-key-env',
      'MY_KEY',
    ],
    code: 1,
    says: ['[ENDPOINT_AUTH]', '/v1/chat/completions', 'MY_KEY'],
    environment: { MY_KEY: 'sk-secret-value' },
  },
  failure(
    'a 404 says to check the URL and model',
    () => ['run', '--dataset', dataset, '--model', `openai-compatible:m@${server.url}/missing/v1`],
    'HTTP 404',
    'Check the base URL and the model name',
  ),
  failure(
    'an unreachable endpoint',
    () => [
      'run',
      '--dataset',
      dataset,
      '--model',
      'openai-compatible:m@http://127.0.0.1:9/v1',
      '--max-retries',
      '0',
    ],
    '[ENDPOINT_UNREACHABLE]',
    'ECONNREFUSED',
  ),

  // Release files for build.
  failure(
    'a missing release',
    () => ['build', 'medodyssey', '--data', at('no-release'), '--out', at('o.jsonl')],
    '[DATA_NOT_FOUND]',
  ),
  failure(
    'needles with a JSON syntax error',
    () => ['build', 'medodyssey', '--data', at('needles-syntax'), '--out', at('o.jsonl'), '--lang', 'en'],
    'en_pure_needles.json:4:',
  ),
  failure(
    'a needle of an unknown type',
    () => ['build', 'medodyssey', '--data', at('needles-type'), '--out', at('o.jsonl'), '--lang', 'en'],
    'type',
    '"general" or "med"',
  ),
  failure(
    'UTF-16 needles',
    () => ['build', 'medodyssey', '--data', at('needles-utf16'), '--out', at('o.jsonl'), '--lang', 'en'],
    'UTF-16',
  ),
  failure(
    'a needle answer that is not a list',
    () => ['build', 'medodyssey', '--data', at('needles-shape'), '--out', at('o.jsonl'), '--lang', 'en'],
    'ground_truth',
  ),
  failure(
    'a missing draws file',
    () => build('--task', 'counting', '--counting-draws', at('no-draws.json')),
    'no-draws.json',
  ),
  failure(
    'the shipped draws (--counting-draws alone) on a grid they were not read from',
    () => build('--task', 'counting', '--lang', 'zh', '--levels', '1000', '--counting-draws'),
    'assets/medodyssey/counting-draws.json: entry 0 is acquisition_1 at level 4000',
  ),
  failure(
    'a draws file with a syntax error',
    () => build('--task', 'counting', '--counting-draws', at('draws-syntax.json')),
    'draws-syntax.json:1:',
  ),
  failure(
    'a draws file of the wrong shape',
    () => build('--task', 'counting', '--counting-draws', at('draws-shape.json')),
    'medical',
  ),
  failure(
    'a prompts file with a syntax error',
    () => [
      'build',
      'medodyssey',
      '--sources',
      join(ROOT, 'samples', 'medodyssey-sources'),
      '--task',
      'kg',
      '--out',
      at('o.jsonl'),
      '--prompts',
      at('prompts-syntax.json'),
    ],
    'prompts-syntax.json',
  ),
  failure(
    '--out below a file',
    () => [
      'build',
      'medodyssey',
      '--data',
      samples,
      '--out',
      join(at('a-file'), 'x.jsonl'),
      '--task',
      'niah',
      '--levels',
      '1000',
      '--lang',
      'en',
    ],
    '[FILE_ERROR]',
    'a part of the path is a file',
  ),
  failure(
    'report --html below a file',
    () => ['report', '--html', join(at('a-file'), 'r.html')],
    '[FILE_ERROR]',
  ),
  {
    name: 'a home that cannot be created',
    args: () => run(),
    code: 1,
    says: ['[FILE_ERROR] Cannot write', 'a-file/home/', 'a part of the path is a file, not a folder'],
    // A file where the home folder should be (root can write anywhere, so no permission case).
    home: join(scratch, 'a-file', 'home'),
  },

  // CLUE.
  failure('a missing CLUE folder', () => clueRun('clue-missing'), '[DATA_NOT_FOUND]'),
  failure(
    'a CLUE folder with no task file',
    () => clueRun('clue-none'),
    'No CLUE task file',
    'mli_test_v1.jsonl',
  ),
  failure(
    'a MedNLI line that is not JSON',
    () => clueRun('clue-mednli-json', '--tasks', 'mednli'),
    'mli_test_v1.jsonl:2',
  ),
  failure(
    'a MedNLI label that is not one',
    () => clueRun('clue-mednli-label', '--tasks', 'mednli'),
    'mli_test_v1.jsonl:1',
    'gold_label',
  ),
  failure(
    'invalid UTF-8 in MedNLI',
    () => clueRun('clue-mednli-utf8', '--tasks', 'mednli'),
    'mli_test_v1.jsonl:2: the line is not valid UTF-8',
  ),
  failure(
    'LongHealth without questions',
    () => clueRun('clue-longhealth', '--tasks', 'longhealth'),
    'benchmark_v5.json',
  ),
  failure(
    'MeDiSumCode without codes',
    () => clueRun('clue-medisumcode', '--tasks', 'medisumcode'),
    'MeDiSumCode.json',
  ),
  failure(
    'a Problem Summary CSV with an open quote',
    () => clueRun('clue-csv', '--tasks', 'problem-summary'),
    'BioNLP2023-1A-Test.csv',
  ),
  failure(
    'a MeQSum file that is not a workbook',
    () => clueRun('clue-xlsx', '--tasks', 'meqsum'),
    'MeQSum_fixture.xlsx',
  ),
  failure(
    'a missing MRCONSO',
    () => clueRun('clue-ok', '--tasks', 'problem-summary', '--umls', at('none.RRF')),
    'none.RRF',
  ),
  failure(
    'a short MRCONSO line',
    () => clueRun('clue-ok', '--tasks', 'problem-summary', '--umls', at('mrconso-bad.RRF')),
    'mrconso-bad.RRF:1',
  ),
  failure(
    'a bad ICD-10 line',
    () => clueRun('clue-ok', '--tasks', 'medisumcode', '--icd10', at('icd-bad.txt')),
    'icd-bad.txt:2',
  ),
  failure(
    'a missing BERTScore folder',
    () => clueRun('clue-ok', '--tasks', 'meqsum', '--bertscore-model', at('no-encoder')),
    'no-encoder',
  ),
  failure(
    'rescoring an unknown run',
    () => ['rescore', 'clue', '--run', 'nosuch', '--umls-entities', at('entities-ok.jsonl')],
    'nosuch',
  ),
  failure(
    'an entity line of the wrong shape',
    () => ['rescore', 'clue', '--run', 'nosuch', '--umls-entities', at('entities-bad.jsonl')],
    'entities-bad.jsonl:1: field "id": expected the item id',
  ),
  failure(
    'exporting an unknown run',
    () => ['export', 'clue-umls-texts', '--run', 'nosuch', '--out', at('texts.jsonl')],
    'nosuch',
  ),

  // MedEureka.
  failure('a missing MedEureka folder', eureka(at('eureka-missing')), 'eureka-missing'),
  failure('a MedEureka folder without a release', eureka(at('eureka-none')), 'eureka-none'),
  failure('a truncated Parquet file', eureka(at('eureka-truncated')), 'not a readable Parquet file'),
  failure('a text file named .parquet', eureka(at('eureka-text')), 'not a readable Parquet file'),
  failure('an empty .parquet file', eureka(at('eureka-empty')), 'not a readable Parquet file'),
  failure('a queries line that is not JSON', eureka(at('eureka-plain-json')), 'queries.jsonl:1'),
  failure('a corpus that is not JSON', eureka(at('eureka-plain-corpus')), 'corpus.json:1:'),
  failure(
    'an unknown retriever',
    () => [
      'run',
      'medeureka',
      '--data',
      join(ROOT, 'test', 'fixtures', 'medeureka', 'parquet'),
      '--model',
      'tf-idf-9000',
    ],
    'tf-idf-9000',
  ),

  // Published outputs.
  failure(
    'a missing release to import',
    () => ['import', 'medodyssey-outputs', at('published-missing')],
    'published-missing',
  ),
  failure(
    'a published line that is not JSON',
    () => ['import', 'medodyssey-outputs', at('published-syntax')],
    'en_m_v1.jsonl:2',
  ),
  failure(
    'a published field of the wrong shape',
    () => ['import', 'medodyssey-outputs', at('published-field')],
    'en_m_v1.jsonl:1',
    'position(%)',
  ),
  failure('a UTF-16 published file', () => ['import', 'medodyssey-outputs', at('published-utf16')], 'UTF-16'),

  // Reading a store that is not there.
  {
    name: 'report without a store',
    args: () => ['report'],
    code: 1,
    says: ['There is no medbench store'],
    home: emptyHome,
  },
  ...[
    ['run', run()],
    ['demo', ['demo']],
    ['report', ['report']],
  ].flatMap(([command, args]) =>
    ['/proc/medbench-home', '/sys/kernel/medbench-home'].map(
      (kernelHome): Case => ({
        name: `${command} with a home on ${kernelHome.split('/')[1]}`,
        args: () => args as string[],
        code: 2,
        says: [
          /\[USAGE\] The medbench home \/(proc|sys)\/\S+ \(--home\) is on the kernel's (proc|sysfs) file system/,
        ],
        home: kernelHome,
        withinMs: 10_000,
      }),
    ),
  ),
  {
    name: 'view without a store',
    args: () => ['view'],
    code: 1,
    says: ['There is no medbench store'],
    home: emptyHome,
  },
  // The engine hand-off: export requests, import responses.
  ...handOffCases(),
  failure('ratios on a missing release', () => ['ratios', '--data', at('no-release')], '[DATA_NOT_FOUND]'),
];

/** `export requests` and `import responses` refusing what they cannot hand off or take back. */
function handOffCases(): Case[] {
  const exportArgs = (...extra: string[]) => [
    ...['export', 'requests', '--out', at('requests.jsonl'), '--dataset', dataset],
    ...['--model', 'openai-compatible:m@http://127.0.0.1:9/v1', ...extra],
  ];
  const importing = (name: string, file: string, says: string) =>
    failure(name, () => ['import', 'responses', at(file)], file, says);
  return [
    usage('export requests --format csv', exportArgs('--format', 'csv'), "argument 'csv' is invalid"),
    usage(
      'export requests of a base model (--completions)',
      exportArgs('--completions'),
      'has no OpenAI batch form',
    ),
    usage(
      'export requests judged by the endpoint (--count-tokens endpoint)',
      exportArgs('--count-tokens', 'endpoint'),
      'export requests judges too_long by the model',
    ),
    usage(
      'export requests of a baseline',
      [
        'export',
        'requests',
        '--out',
        at('requests.jsonl'),
        '--dataset',
        dataset,
        '--model',
        'baseline:extractive',
      ],
      'has no OpenAI batch form',
    ),
    usage('import responses without a file', ['import', 'responses'], "missing required argument 'file'"),
    importing('import responses of a missing file', 'no-results.jsonl', 'not found'),
    importing('import responses that are not JSON', 'results-not-json.jsonl', ':1: not valid JSON'),
    importing(
      'import responses to requests this home never exported',
      'results-stranger.jsonl',
      ':1: custom_id "request-1" is not a request medbench exported to this home',
    ),
  ];
}

describe('bad input: a table of cases, each a clear error, the right exit code and the store as it was', () => {
  it('has at least 80 cases, each named once', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(80);
    expect(new Set(CASES.map((entry) => entry.name)).size).toBe(CASES.length);
  });

  it.concurrent.each(CASES)('$name', async (entry) => {
    const folder = entry.home ?? home;
    const started = startCli(['--home', folder, ...entry.args()], entry.environment);
    const deadline = entry.withinMs
      ? setTimeout(() => started.child.kill('SIGKILL'), entry.withinMs)
      : undefined;
    const result = await started.done;
    clearTimeout(deadline);
    expect(result.code, `killed after ${entry.withinMs} ms`).not.toBeNull();
    expect(result.code, result.stderr).toBe(entry.code);
    for (const text of entry.says)
      if (typeof text === 'string') expect(result.stderr).toContain(text);
      else expect(result.stderr).toMatch(text);
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at [\w.<>]+ \(/);
    if (entry.code === 1)
      expect(result.stderr.split('\n').filter((line) => line.startsWith('medbench: error'))).toHaveLength(1);
    if (entry.environment?.MY_KEY) expect(result.stderr).not.toContain(entry.environment.MY_KEY);
    expect(storeDigest(home)).toBe(before);
  });
});
