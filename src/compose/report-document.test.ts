import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonSchemaErrors } from '../../test/support/json-schema-check.js';
import { configSchema } from './config.js';
import { jsonSchemaFiles, REPORT_SCHEMA_VERSION, reportDocument } from './report-document.js';
import { SUITE_PLUGINS, SUITES, suiteNamed } from './suites.js';

const ROOT = join(import.meta.dirname, '..', '..');
const NO_SECTIONS = { usage: [], limited: [], settings: [] };
const emptyReport = { suite: 'medeureka', generatedAt: '2026-11-27T00:00:00.000Z', runs: [] };

describe('the report --json document and the shipped JSON Schemas', () => {
  it('schemas/ holds what the zod schemas generate (run `npm run build` or `node tools/write-schemas.js` after changing one)', () => {
    for (const [name, text] of Object.entries(jsonSchemaFiles(SUITES, SUITE_PLUGINS)))
      expect(readFileSync(join(ROOT, 'schemas', name), 'utf8'), `schemas/${name} is stale`).toBe(text);
  });

  it('the package ships schemas/', () => {
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    expect(files).toContain('schemas');
  });

  it('starts with its schema version and carries the sections every suite has', () => {
    const document = reportDocument(suiteNamed('medeureka'), emptyReport, NO_SECTIONS);
    expect(Object.keys(document as object)).toEqual([
      'schemaVersion',
      'suite',
      'generatedAt',
      'runs',
      'usage',
      'limited',
      'settings',
    ]);
    expect((document as { schemaVersion: number }).schemaVersion).toBe(REPORT_SCHEMA_VERSION);
  });

  it('refuses a report its schema does not describe, naming where (the schema cannot drift from what is printed)', () => {
    const suite = suiteNamed('medeureka');
    expect(() => reportDocument(suite, { ...emptyReport, extra: 1 }, NO_SECTIONS)).toThrow(
      /MedEureka report does not fit its schema at \(root\): Unrecognized key: "extra" \(a medbench bug/,
    );
    const run = { runId: 'r', label: 'bm25', model: {}, datasets: {}, average: { 'mrr@10': Number.NaN } };
    expect(() => reportDocument(suite, { ...emptyReport, runs: [run] }, NO_SECTIONS)).toThrow(
      /does not fit its schema at runs\.0\.modelId/,
    );
  });

  it('a JSON Schema per suite, told apart by `suite`, and the config schema with every provider', () => {
    const files = jsonSchemaFiles(SUITES);
    const report = JSON.parse(files['report.schema.json']!) as {
      $schema: string;
      oneOf: Array<{ properties: { suite: { const: string }; schemaVersion: { const: number } } }>;
    };
    expect(report.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(report.oneOf.map((document) => document.properties.suite.const)).toEqual(
      SUITES.map((suite) => suite.name),
    );
    expect(report.oneOf.every((document) => document.properties.schemaVersion.const === 5)).toBe(true);
    const config = JSON.parse(files['config.schema.json']!) as {
      properties: { models: { additionalProperties: { properties: { provider: { enum: string[] } } } } };
    };
    expect(config.properties.models.additionalProperties.properties.provider.enum).toContain('openai');
  });
});

/** The configs the docs show whole (a ```json block with `models` or `embeddingModels`), by file. */
function documentedConfigs(): Array<[string, Record<string, unknown>]> {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.md'))
      .map((path) => join('docs', path)),
  ];
  return pages.flatMap((page) =>
    [
      ...readFileSync(join(ROOT, page), 'utf8').matchAll(
        /```json\n(\{\s*"(?:models|embeddingModels|defaults)"[\s\S]*?)```/g,
      ),
    ].map(
      (match) =>
        [page, JSON.parse(match[1]!) as Record<string, unknown>] as [string, Record<string, unknown>],
    ),
  );
}

describe('the config schema (schemas/config.schema.json is generated from it)', () => {
  const configs = documentedConfigs();

  it('the docs show whole configs', () => {
    expect(configs.map(([page]) => page)).toEqual(
      expect.arrayContaining(['docs/formats.md', 'docs/providers/azure-openai.md']),
    );
  });

  it.each(configs)(
    '%s: its config is valid, also naming the shipped schema as its $schema',
    (_page, config) => {
      expect(configSchema.safeParse(config).error?.issues).toBeUndefined();
      const named = { $schema: './node_modules/medbench/schemas/config.schema.json', ...config };
      expect(configSchema.safeParse(named).error?.issues).toBeUndefined();
      expect(configSchema.safeParse({ ...config, $schemas: 'x' }).success).toBe(false);
    },
  );
});

describe('schemas/*.schema.json checked directly (test/support/json-schema-check.ts)', () => {
  const schemaFile = (name: string) => JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8'));

  it('report.schema.json takes a document report --json prints and refuses what its zod schema refuses', () => {
    const schema = schemaFile('report.schema.json');
    const document = reportDocument(suiteNamed('medeureka'), emptyReport, NO_SECTIONS) as Record<
      string,
      unknown
    >;
    expect(jsonSchemaErrors(schema, document)).toEqual([]);
    const run = {
      runId: 'r',
      label: 'bm25',
      modelId: 'bm25',
      provider: null,
      source: 'evaluated',
      scoringMode: 'standard',
      statuses: { ok: 1, bad_format: 0, too_long: 0, error: 0 },
      settings: {},
      model: { retriever: 'bm25' },
      datasets: {},
      average: { 'mrr@10': 50 },
      byDataType: {},
      byLanguage: {},
      byGranularity: {},
    };
    expect(jsonSchemaErrors(schema, { ...document, runs: [run] })).toEqual([]);
    expect(jsonSchemaErrors(schema, { ...document, extra: 1 })).toContain('$.extra: not allowed');
    expect(jsonSchemaErrors(schema, { ...document, schemaVersion: 1 })).toContain('$.schemaVersion: not 5');
    expect(jsonSchemaErrors(schema, { ...document, suite: 'other' })[0]).toBe('$: 0 oneOf branches fit');
    expect(jsonSchemaErrors(schema, { ...document, generatedAt: 'today' })).toContain(
      '$.generatedAt: not a date-time',
    );
    const { modelId: _, ...withoutModelId } = run;
    expect(jsonSchemaErrors(schema, { ...document, runs: [withoutModelId] })).toContain(
      '$.runs[0].modelId: required',
    );
    const negative = { ...run, statuses: { ...run.statuses, ok: -1 } };
    expect(jsonSchemaErrors(schema, { ...document, runs: [negative] })).toContain(
      '$.runs[0].statuses.ok: below 0',
    );
  });

  it('config.schema.json refuses an unknown provider, a field of no model and a concurrency below 1', () => {
    const schema = schemaFile('config.schema.json');
    const model = {
      provider: 'openai',
      model: 'gpt-4o',
      endpoints: [{ baseURL: 'https://api.openai.com/v1' }],
    };
    expect(jsonSchemaErrors(schema, { models: { m: model } })).toEqual([]);
    expect(jsonSchemaErrors(schema, { models: { m: { ...model, provider: 'opanai' } } })[0]).toMatch(
      /^\$\.models\.m\.provider: not one of/,
    );
    expect(jsonSchemaErrors(schema, { models: { m: { ...model, temprature: 0 } } })).toEqual([
      '$.models.m.temprature: not allowed',
    ]);
    expect(jsonSchemaErrors(schema, { defaults: { concurrency: 0 } })).toEqual([
      '$.defaults.concurrency: not above 0',
    ]);
  });
});
