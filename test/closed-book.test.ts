import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateDataset } from '../src/compose/evaluate-dataset.js';
import type { RunRecord, StoredResult } from '../src/core/run-record.js';
import type { Sample } from '../src/core/sample.js';
import { readDataset, writeDataset } from '../src/runner/dataset-file.js';
import { Store } from '../src/store/store.js';
import { buildMedOdysseyDataset } from '../src/suites/medodyssey/build-dataset.js';
import { closedBookSample } from '../src/suites/medodyssey/closed-book.js';
import { loadPromptTemplates, medicalPrompt } from '../src/suites/medodyssey/medical-prompts.js';
import { buildMedOdysseyReport } from '../src/suites/medodyssey/medodyssey-report.js';
import { medodysseyReportSchema } from '../src/suites/medodyssey/medodyssey-report-schema.js';
import { NIAH_INSTRUCTION, niahQuestion } from '../src/suites/medodyssey/prompts.js';
import { medodysseySuite } from '../src/suites/medodyssey/suite.js';
import { getTokenizer } from '../src/tokenizers/registry.js';
import { figureText } from '../src/view/shared/figure-text.js';
import { ViewData } from '../src/view/view-data.js';
import { jsonSchemaErrors } from './support/json-schema-check.js';
import { type LlmTestServer, type RecordedRequest, startLlmTestServer } from './support/llm-test-server.js';

const ROOT = join(import.meta.dirname, '..');
const SOURCES = join(ROOT, 'samples', 'medodyssey-sources');
const scratch = mkdtempSync(join(tmpdir(), 'medbench-closed-book-'));
const datasetPath = join(scratch, 'dataset.jsonl');
const home = join(scratch, 'home');
let samples: Sample[];
let server: LlmTestServer;

/** The mentions the scripted model knows by heart: it answers them right with or without the termbase. */
const KNOWN_MENTIONS = new Set(['double vision', 'fainting']);

const promptOf = (request: RecordedRequest) =>
  (request.body.messages as Array<{ content: string }>).at(-1)!.content as string;

/**
 * A scripted model: NIAH right only when the needle is in the prompt, and never for needle 0
 * (the most literal one, overlap 1); Term right when the termbase is there, or without it for
 * the mentions it knows.
 */
function answer(request: RecordedRequest): string {
  const prompt = promptOf(request);
  const sample = samples.find((entry) =>
    entry.task === 'niah'
      ? prompt.endsWith(niahQuestion('en', entry.meta!.question as string))
      : prompt.includes(`\n${entry.meta!.question as string}\n`),
  )!;
  if (sample.task === 'niah') {
    const found = prompt.includes(sample.meta!.needle as string) && sample.params.needleId !== 0;
    return JSON.stringify({ answer: found ? (sample.gold as { answers: string[] }).answers[0] : 'unknown' });
  }
  const term = (sample.gold as { answer: string }).answer;
  const known = KNOWN_MENTIONS.has(sample.meta!.question as string) || prompt.includes(term);
  return JSON.stringify({ result: known ? term : 'unknown' });
}

const model = () => `openai-compatible:m@${server.url}/v1`;
const runOptions = { home, contextWindow: 128000, tokenizer: 'o200k_base', report: false } as const;

beforeAll(async () => {
  const o200k = await getTokenizer('o200k_base');
  const build = await buildMedOdysseyDataset({
    release: {
      data: join(ROOT, 'samples', 'medodyssey'),
      tasks: ['niah'],
      languages: ['en'],
      levels: [1000],
      depths: [25, 75],
      countingTypes: [],
      mic: 'ratio',
      tokenizers: [o200k],
      haystack: 'medical',
      seed: 'closed-book',
      countingSentences: { min: 6, max: 20 },
    },
    medical: {
      folder: SOURCES,
      tasks: ['term'],
      kgQuestions: 2,
      promptsFile: () => join(SOURCES, 'prompt.json'),
    },
    languages: ['en'],
    levels: [1000],
    mic: 'ratio',
    gamma: { en: 0.36, zh: 1.41 },
    // The build's counts are of the prompts with context: a closed-book run must not use them.
    tokenizers: [o200k],
    seed: 'closed-book',
  });
  await writeDataset({
    path: datasetPath,
    header: {
      suite: 'medodyssey',
      createdAt: 'now',
      generator: 'test',
      build: {},
      tokenizers: ['o200k_base'],
    },
    samples: build.samples,
  });
  samples = (await readDataset(datasetPath)).samples;
  server = await startLlmTestServer({ fallback: (request) => ({ kind: 'answer', text: answer(request) }) });
  await evaluateDataset({ dataset: datasetPath, model: model(), ...runOptions });
  await evaluateDataset({ dataset: datasetPath, model: model(), closedBook: true, ...runOptions });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

function stored(): Array<{ run: RunRecord; results: StoredResult[] }> {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    return store.listRuns({ suite: 'medodyssey' }).map((run) => ({ run, results: store.results(run.id) }));
  } finally {
    store.close();
  }
}

describe('run --closed-book', () => {
  it('sends each question without its context: the same instruction, question and answer format', () => {
    const terms = samples.filter((sample) => sample.task === 'term');
    expect(terms.length).toBeGreaterThan(2);
    // A needle's question is one prompt at every depth: asked once, then answered from the cache.
    const closed = server.requests.slice(samples.length).map(promptOf);
    const distinct = new Set(samples.map((sample) => closedBookSample(sample)!.prompt));
    expect(closed).toHaveLength(distinct.size);
    const prompts = loadPromptTemplates(join(SOURCES, 'prompt.json'));
    for (const sample of samples) {
      const question = sample.meta!.question as string;
      const expected =
        sample.task === 'niah'
          ? NIAH_INSTRUCTION.en + niahQuestion('en', question)
          : (() => {
              const shape = medicalPrompt(prompts, 'term', 'en', question);
              return shape.head + shape.tail;
            })();
      expect(closed).toContain(expected);
      expect(closedBookSample(sample)!.prompt).toBe(expected);
    }
    // The context really is gone: no needle, no termbase line.
    expect(
      closed.some((prompt) => samples.some((sample) => prompt.includes(sample.meta!.needle as string))),
    ).toBe(false);
    expect(closed.some((prompt) => prompt.includes('Diplopia\n'))).toBe(false);
  });

  it('has no closed-book form of Counting, and refuses a medical sample that does not say where its context is', () => {
    const counting = { ...samples[0]!, task: 'counting' };
    expect(closedBookSample(counting)).toBeUndefined();
    const term = samples.find((sample) => sample.task === 'term')!;
    expect(() => closedBookSample({ ...term, meta: { question: term.meta!.question } })).toThrow(
      /does not say where its context is/,
    );
  });

  it('is a run of its own, marked closed-book, sharing no cached answer with the run with context', () => {
    const runs = stored();
    expect(runs).toHaveLength(2);
    const closed = runs.find(({ run }) => run.parameters.closedBook === true)!;
    const open = runs.find(({ run }) => run.parameters.closedBook === undefined)!;
    expect(closed.run.id).not.toBe(open.run.id);
    expect(closed.run.label).toBe(`${open.run.label} (closed-book)`);
    expect(closed.run.datasetId).toBe(open.run.datasetId);
    // Cached only within the closed-book run: the needles' second depth (their questions repeat).
    expect(closed.results.filter((result) => result.cacheHit)).toHaveLength(4);
    expect(server.requests).toHaveLength(samples.length + samples.length - 4);
    expect(closed.results).toHaveLength(samples.length);
  });

  it("counts the short prompts with the model's tokenizer in a dry run (not the dataset's counts of the long ones)", async () => {
    const o200k = await getTokenizer('o200k_base');
    const expected = samples.reduce((sum, sample) => sum + o200k.count(closedBookSample(sample)!.prompt), 0);
    const withContext = samples.reduce((sum, sample) => sum + sample.promptTokens.o200k_base!, 0);
    let printed = '';
    await evaluateDataset(
      {
        dataset: datasetPath,
        model: model(),
        closedBook: true,
        dryRun: true,
        ...runOptions,
        home: join(scratch, 'dry'),
      },
      { onReport: (text) => (printed = text) },
    );
    const all = printed
      .split('\n')
      .find((line) => line.startsWith('all\t'))!
      .split('\t');
    expect(Number(all[4])).toBe(expected);
    expect(expected).toBeLessThan(withContext / 4);
  });
});

describe('the report of a closed-book run', () => {
  it('marks the items answered without context and gives each score with and without them, with intervals', () => {
    const report = buildMedOdysseyReport(stored(), { intervals: { resamples: 200, seed: 7 } });
    expect(medodysseyReportSchema.safeParse(JSON.parse(JSON.stringify(report))).success).toBe(true);
    // And against the JSON Schema generated from it (schemas/report.schema.json, the MedOdyssey branch).
    const file = JSON.parse(readFileSync(join(ROOT, 'schemas', 'report.schema.json'), 'utf8'));
    const properties = file.oneOf[0].properties;
    expect(jsonSchemaErrors(properties.closedBook, JSON.parse(JSON.stringify(report.closedBook)))).toEqual(
      [],
    );
    expect(
      jsonSchemaErrors(properties.needleOverlap, JSON.parse(JSON.stringify(report.needleOverlap))),
    ).toEqual([]);
    const [comparison] = report.closedBook!;
    expect(comparison!.contextRunId).not.toBeNull();
    const byKey = Object.fromEntries(comparison!.tasks.map((task) => [task.key, task]));
    expect(Object.keys(byKey).sort()).toEqual(['En.NIAH', 'En.Term']);
    // NIAH: nothing without the needle; with it, 3 of the 4 needles (each at two depths: resampled by needle).
    expect(byKey['En.NIAH']!.closedBook.score).toBe(0);
    expect(byKey['En.NIAH']!.known).toEqual([]);
    expect(byKey['En.NIAH']!.withContext!.score).toBe(75);
    expect(byKey['En.NIAH']!.withContextUnknownOnly!.score).toBe(75);
    // Term: the two known mentions without the termbase; every mention with it.
    const term = byKey['En.Term']!;
    const terms = samples.filter((sample) => sample.task === 'term');
    const knownIds = terms
      .filter((sample) => KNOWN_MENTIONS.has(sample.meta!.question as string))
      .map((s) => s.id);
    expect(term.known).toEqual(knownIds.sort());
    expect(term.closedBook.score).toBeCloseTo((100 * 2) / terms.length, 10);
    expect(term.withContext).toMatchObject({ score: 100, samples: terms.length });
    expect(term.withContextUnknownOnly).toMatchObject({ score: 100, samples: terms.length - 2 });
    expect(term.closedBook.interval).toMatchObject({ method: 'wilson' });
    expect(byKey['En.NIAH']!.withContext!.interval).toMatchObject({ method: 'bootstrap', units: 4 });

    const text = medodysseySuite.renderText(report, {});
    expect(text).toContain('Closed-book control');
    // Each score with its interval on the line under it.
    expect(text).toMatch(
      /En\.Term\s+ESM accuracy\s+\d+\.\d\s+2\/\d+\s+100\.0\s+100\.0\n\s+\[\d+\.\d–\d+\.\d\]/,
    );
    const html = medodysseySuite.renderHtml(report);
    expect(html).toContain('Closed-book control');
  });

  it('gives NIAH accuracy by needle–question overlap tercile, the closed-book run left out', () => {
    const report = buildMedOdysseyReport(stored(), { intervals: { resamples: 200, seed: 7 } });
    const overlap = report.needleOverlap!;
    // Needles 0–3: 1, 4/5, 7/10, 5/6 (needle-overlap.test.ts); cuts at 0.8 and 0.8333.
    expect(overlap.needles.map((needle) => [needle.needleId, needle.overlap, needle.tercile])).toEqual([
      [0, 1, 'high'],
      [1, 0.8, 'low'],
      [2, 0.7, 'low'],
      [3, 0.8333, 'middle'],
    ]);
    expect(overlap.runs).toHaveLength(1);
    const en = overlap.runs[0]!.byLanguage.en!;
    expect([en.low.score, en.middle.score, en.high.score]).toEqual([100, 100, 0]);
    expect([en.low.samples, en.middle.samples, en.high.samples]).toEqual([4, 2, 2]);
    // All right in clusters: the shared module's Wilson over the units (the bootstrap would collapse).
    expect(en.low.interval).toMatchObject({ method: 'wilson', units: 2 });
    expect(medodysseySuite.renderText(report, {})).toContain(
      'NIAH ESM accuracy by needle–question overlap tercile',
    );
  });
});

describe("the viewer's run pages", () => {
  it('show NIAH by overlap tercile and, on the closed-book run, the scores with and without the known items', () => {
    const store = new Store(join(home, 'medbench.sqlite'));
    try {
      const view = new ViewData(store, [medodysseySuite]);
      const runs = store.listRuns({ suite: 'medodyssey' });
      const open = runs.find((run) => run.parameters.closedBook === undefined)!;
      const closed = runs.find((run) => run.parameters.closedBook === true)!;
      const figures = (runId: string, group: string) =>
        view.runSummary(runId)!.groups.find((entry) => entry.group === group)!.figures;
      const terciles = figures(open.id, 'niah-en').filter((figure) => figure.name.includes('overlap'));
      expect(terciles.map((figure) => [figure.name, figure.value])).toEqual([
        ['ESM: accuracy, low needle–question overlap (2 needles)', 100],
        ['ESM: accuracy, middle needle–question overlap (1 needles)', 100],
        ['ESM: accuracy, high needle–question overlap (1 needles)', 0],
      ]);
      expect(terciles[0]!.interval).toBeDefined();
      expect(figureText(terciles[0]!)).toMatch(/^100\.00 \[\d+\.\d\d, 100\.00\]$/);
      const term = figures(closed.id, 'term-en');
      const value = (prefix: string) => term.find((figure) => figure.name.startsWith(prefix))!;
      expect(value('Closed-book: items answered right').value).toBe(2);
      expect(value('With context (').value).toBe(100);
      expect(value('With context, the items known').value).toBe(100);
      expect(value('Closed-book: ESM accuracy').interval).toBeDefined();
      // The closed-book run has no tercile figures: its prompts hold no needle.
      expect(figures(closed.id, 'niah-en').some((figure) => figure.name.includes('overlap'))).toBe(false);
    } finally {
      store.close();
    }
  });
});
