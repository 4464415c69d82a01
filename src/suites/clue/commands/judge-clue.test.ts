import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LlmTestServer,
  type RecordedRequest,
  startLlmTestServer,
} from '../../../../test/support/llm-test-server.js';
import {
  judgeVerdicts,
  MARKED_RESTRICTED,
  REMOTE_JUDGE,
  readJudgeRequest,
  writePricedJudgeConfig,
} from '../../../../test/support/scripted-judge.js';
import { testResultRecord, testRun } from '../../../../test/support/test-run.js';
import { MedbenchError } from '../../../core/errors.js';
import type { RunSummary } from '../../../runner/run-samples.js';
import { Store } from '../../../store/store.js';
import { buildClueReport, renderClueHtml, renderClueText } from '../clue-report.js';
import { clueReportSchema } from '../clue-report-schema.js';
import { levelScore } from '../level-score.js';
import { judgeClue } from './judge-clue.js';
import { renderJudgeSummary } from './judge-command.js';
import { jurySpecs } from './judge-items.js';
import { JUDGE_SEED } from './judging.js';

/**
 * A deterministic judge: "good" meets every positive criterion; "half" only the first (judge-b:
 * every positive one); "broken" gets malformed JSON; "off-schema" a verdict whose `met` is a string.
 */
function scriptedJudge(request: RecordedRequest) {
  const { criteria, answer, model } = readJudgeRequest(request);
  if (answer === 'broken') return { kind: 'answer' as const, text: '{"criteria": [{"id": "keeps-focus", ' };
  if (answer === 'off-schema')
    return {
      kind: 'answer' as const,
      text: '{"criteria":[{"id":"keeps-focus","met":"yes","reason":"fine"}]}',
    };
  return judgeVerdicts(
    criteria,
    (index, points) => points > 0 && (answer === 'good' || index === 0 || model === 'judge-b'),
  );
}

const RUN = 'cluerun0001';

/** One item of the run: `answer` null for an item the model never answered (an error). */
const item = (
  task: string,
  order: number,
  answer: string | null,
  rougeL: number,
  reference = 'What treats X?',
) =>
  testResultRecord({
    runId: RUN,
    sampleId: `${task}/${order}`,
    task,
    params: { order },
    gold: { reference },
    prompt: `Summarize: question ${order}`,
    status: answer === null ? 'error' : 'ok',
    rawOutput: answer,
    parsed: answer,
    scores: { rougeL },
  });

/** A stored CLUE run: MeQSum answers good, half, broken, off-schema and one never answered; a MeDiSumQA answer. */
function writeRun(home: string): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    store.ensureRun(
      testRun({ id: RUN, suite: 'clue', label: 'model', parameters: { protocol: { name: 'none' } } }),
    );
    const answers = ['good', 'half', 'broken', 'off-schema'];
    for (const [order, answer] of answers.entries()) store.putResult(item('meqsum', order, answer, 0.5));
    store.putResult(item('meqsum', 4, null, 0));
    store.putResult(item('medisumqa', 0, 'good', 0.25, 'Take aspirin.'));
  } finally {
    store.close();
  }
}

/** MeQSum's shipped rubric: 5 + 5 + 3 + 2 + 2 + 2 = 19 positive points, the first worth 5. */
const HALF = 5 / 19;

describe('medbench judge (scripted judge on 127.0.0.1)', () => {
  let server: LlmTestServer;
  let home: string;
  const spec = (model: string) => `openai-compatible:${model}@${server.url}/v1`;
  const scores = () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      return Object.fromEntries(store.results(RUN).map((result) => [result.sampleId, result.scores]));
    } finally {
      store.close();
    }
  };

  beforeAll(async () => {
    server = await startLlmTestServer({ fallback: scriptedJudge });
    // One home for the whole file: each test builds on the judgings before it.
    home = mkdtempSync(join(tmpdir(), 'medbench-judge-'));
    writeRun(home);
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('scores per rubric, leaves unreadable verdicts unscored (never 0), and keeps the papers’ metrics', async () => {
    const summary = await judgeClue({ run: 'cluerun', model: spec('judge-a'), home, maxRetries: 0 });
    expect(summary.written).toBe(true);
    expect(summary.tasks.meqsum).toMatchObject({ scored: 2, failed: 1, unscored: 2 });
    expect(summary.tasks.meqsum!.reasons.join('\n')).toMatch(/meqsum\/2: judge-a: not JSON/);
    // HALF and 1 over two answers; the never-answered item counts 0: (1 + 5/19 + 0) / 3.
    expect(renderJudgeSummary(summary)).toMatch(
      /^meqsum: judge 42\.1 \[[\d.]+, [\d.]+\] over 2 graded answers, 1 not answered by the model \(0\) — ROUGE-L 40\.0; 2 unscored \(meqsum\/2: judge-a: not JSON/m,
    );
    expect(summary.tasks.meqsum!.reasons.join('\n')).toMatch(
      /meqsum\/3: judge-a: not the verdict schema: criteria\.0\.met/,
    );
    const stored = scores();
    expect(stored['meqsum/0']).toEqual({ rougeL: 0.5, judge: 1 });
    expect(stored['meqsum/1']!.judge).toBeCloseTo(HALF, 12);
    expect(stored['meqsum/2']).toEqual({ rougeL: 0.5 });
    expect(stored['meqsum/3']).toEqual({ rougeL: 0.5 });
    // Never answered by the model: 0, as every metric counts it; the judge was not asked.
    expect(stored['meqsum/4']).toEqual({ rougeL: 0, judge: 0 });
    expect(stored['medisumqa/0']).toEqual({ rougeL: 0.25, judge: 1 });
    expect(server.requests).toHaveLength(5);
  });

  it('sends every request at temperature 0 with the seed', () => {
    for (const request of server.requests) {
      expect(request.body.temperature).toBe(0);
      expect(request.body.seed).toBe(JUDGE_SEED);
    }
  });

  it("stores the judge's prompt and raw answer per sample in its own run, linked to the graded run", () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const [judgeRun] = store.judgeRuns.of(RUN);
      expect(store.getRun(judgeRun!)?.suite).toBe('clue-judge');
      const broken = store.result(judgeRun!, 'meqsum/2')!;
      expect(broken.status).toBe('bad_format');
      expect(broken.rawOutput).toBe('{"criteria": [{"id": "keeps-focus", ');
      expect(store.getPrompt(broken.promptHash!)).toContain('<answer_to_grade>\nbroken\n</answer_to_grade>');
      // The system message (the rubric), the same for every sample of a task, is kept once in the judge run.
      const rubrics = store.getRun(judgeRun!)!.parameters.rubrics as Record<string, { systemPrompt: string }>;
      const sent = server.requests.find((request) => JSON.stringify(request.body).includes('broken'))!;
      expect((sent.body.messages as Array<{ content: string }>)[0]!.content).toBe(
        rubrics.meqsum!.systemPrompt,
      );
      expect(rubrics.meqsum!.systemPrompt).toContain('- keeps-focus (+5): ');
      // The CLUE report and leaderboard list no judge run as a model.
      expect(store.listRuns({ suite: 'clue' }).map((run) => run.id)).toEqual([RUN]);
    } finally {
      store.close();
    }
  });

  it('judging again sends nothing (resume) and writes the same scores', async () => {
    const before = scores();
    const summary = await judgeClue({ run: RUN, model: spec('judge-a'), home });
    expect(server.requests).toHaveLength(5);
    expect(summary.tasks.meqsum).toMatchObject({ scored: 2, unscored: 2 });
    expect(scores()).toEqual(before);
  });

  it('a jury: mean of the judges, or majority per criterion (a tie of two is not met)', async () => {
    const printed: RunSummary[] = [];
    await judgeClue(
      { run: RUN, model: `${spec('judge-a')},${spec('judge-b')}`, home },
      { onSummary: (summary) => printed.push(summary) },
    );
    // One summary for the jury: judge-a's 5 answers from before, judge-b's 5 new.
    expect(
      printed.map(({ total, alreadyDone, done, errors }) => ({ total, alreadyDone, done, errors })),
    ).toEqual([{ total: 10, alreadyDone: 5, done: 5, errors: 0 }]);
    // A judge's missing answer is not "wrong" as a model's is: the summary says what it means.
    expect(printed[0]!.errorMeaning).toMatch(/leaves that judge out of the sample's jury/);
    // judge-a's answers come from the cache of the earlier judging: only judge-b is asked.
    expect(server.requests).toHaveLength(10);
    expect(scores()['meqsum/1']!.judge).toBeCloseTo((HALF + 1) / 2, 12);
    await judgeClue({
      run: RUN,
      model: `${spec('judge-a')},${spec('judge-b')}`,
      home,
      aggregation: 'majority',
    });
    expect(server.requests).toHaveLength(10);
    // Only the first criterion has both judges: 5 of 19.
    expect(scores()['meqsum/1']!.judge).toBeCloseTo(HALF, 12);
  });

  it('the report shows the judge beside ROUGE-L with its interval and the unscored count, outside the level scores', () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const run = store.getRun(RUN)!;
      const report = buildClueReport([{ run, results: store.results(RUN) }], {
        intervals: { resamples: 200, seed: 1 },
      });
      expect(report.runs[0]!.judge).toEqual({
        jury: ['judge-a', 'judge-b'],
        aggregation: 'majority',
        scored: { meqsum: 2, medisumqa: 1 },
        unscored: { meqsum: 2, medisumqa: 0 },
      });
      expect(report.runs[0]!.intervals?.meqsum?.judge).toBeDefined();
      // `report --json`'s schema describes the judge's fields (a strict object: an undescribed field fails).
      expect(clueReportSchema.safeParse(JSON.parse(JSON.stringify(report))).error).toBeUndefined();
      // A dataset's level score is the mean of the papers' metrics only.
      expect(
        levelScore({ meqsum: { rougeL: 0.4, judge: 1 }, medisumqa: { rougeL: 0.2, judge: 0 } }),
      ).toBeCloseTo(0.3, 12);
      const text = renderClueText(report);
      expect(text).toMatch(/LLM judge beside the papers' metrics/);
      expect(text).toMatch(/meqsum\s+\S+\s+\[[\d.]+, [\d.]+\]\s+40\.00/);
      expect(renderClueHtml(report)).toContain('<h2>LLM judge</h2>');
    } finally {
      store.close();
    }
  });

  it('--max-cost caps the judges: at 0 nothing is sent or written; then the judges’ cost is counted', async () => {
    const config = join(home, 'medbench.config.json');
    writePricedJudgeConfig(config, server.url, 'judge-p');
    const before = scores();
    const sent = server.requests.length;
    const stopped = await judgeClue({ run: RUN, model: 'priced', home, config, maxCost: 0 });
    expect(stopped.written).toBe(false);
    expect(server.requests.length).toBe(sent);
    expect(scores()).toEqual(before);
    const paid = await judgeClue({ run: RUN, model: 'priced', home, config, maxCost: 100 });
    expect(paid.written).toBe(true);
    expect(server.requests.length).toBe(sent + 5);
    // The test server counts a token per 4 characters of the prompt: every answer has a price.
    expect(paid.cost).toBeGreaterThan(0);
  });

  it('sends no seed to a provider that takes none (Anthropic), temperature 0 still', async () => {
    const claude = await startLlmTestServer({ provider: 'anthropic' });
    const config = join(home, 'claude.config.json');
    const entry = {
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      endpoints: [{ baseURL: claude.url, apiKeyEnv: 'MEDBENCH_JUDGE_TEST_KEY' }],
    };
    writeFileSync(config, JSON.stringify({ models: { claude: entry } }));
    process.env.MEDBENCH_JUDGE_TEST_KEY = 'test-key';
    try {
      await judgeClue({ run: RUN, model: 'claude', home, config, maxRetries: 0 });
      expect(claude.requests).toHaveLength(5);
      for (const request of claude.requests) {
        expect(request.body.temperature).toBe(0);
        expect(request.body).not.toHaveProperty('seed');
      }
    } finally {
      delete process.env.MEDBENCH_JUDGE_TEST_KEY;
      await claude.close();
    }
  });

  it('refuses a remote judge for MIMIC-derived answers before anything is sent', async () => {
    const sent = server.requests.length;
    const error = await judgeClue({
      run: RUN,
      model: REMOTE_JUDGE,
      home,
    }).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error) && error.code).toBe('DATA_RESTRICTED');
    expect((error as Error).message).toMatch(/MeDiSumQA/);
    expect(server.requests.length).toBe(sent);
  });

  it('refuses a remote judge for a run made with --restricted (its manifest says so), MeQSum alone', async () => {
    const store = new Store(join(home, 'medbench.sqlite'));
    try {
      store.ensureRun(
        testRun({ id: 'marked', suite: 'clue', label: 'marked', parameters: { protocol: { name: 'none' } } }),
      );
      store.putResult({ ...item('meqsum', 0, 'good', 0.5), runId: 'marked' });
      store.recipes.put('marked', MARKED_RESTRICTED);
    } finally {
      store.close();
    }
    const sent = server.requests.length;
    const error = await judgeClue({
      run: 'marked',
      model: REMOTE_JUDGE,
      home,
    }).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error) && error.code).toBe('DATA_RESTRICTED');
    expect(server.requests.length).toBe(sent);
  });

  it('refuses a run whose answers have no stored prompt (a baseline of an earlier medbench), before anything is sent', async () => {
    const store = new Store(join(home, 'medbench.sqlite'));
    try {
      store.ensureRun(
        testRun({
          id: 'promptless',
          suite: 'clue',
          label: 'old',
          parameters: { protocol: { name: 'none' } },
        }),
      );
      store.putResult({ ...item('meqsum', 0, 'good', 0.5), runId: 'promptless', prompt: null });
      store.putResult({ ...item('meqsum', 1, 'half', 0.5), runId: 'promptless' });
    } finally {
      store.close();
    }
    const sent = server.requests.length;
    const error = await judgeClue({ run: 'promptless', model: spec('judge-a'), home }).catch(
      (caught: unknown) => caught,
    );
    expect(MedbenchError.is(error) && error.code).toBe('DATA_INVALID');
    expect((error as Error).message).toMatch(/stores no prompt for 1 of its answered/);
    expect(server.requests.length).toBe(sent);
  });

  it('a --rubric file replaces its task’s rubric; a damaged one is refused naming file and field', async () => {
    const file = join(home, 'meqsum-rubric.json');
    const rubricWorth = (points: number) =>
      writeFileSync(
        file,
        JSON.stringify({
          task: 'meqsum',
          version: 'x',
          definition: 'd',
          criteria: [{ id: 'only', text: 't', points }],
        }),
      );
    rubricWorth(0);
    const error = await judgeClue({ run: RUN, model: spec('judge-a'), home, rubric: [file] }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toBe(
      `${file}: criteria.0.points: a criterion worth 0 points changes no score; give it points or remove it (found the number 0).`,
    );
    rubricWorth(2);
    const sent = server.requests.length;
    await judgeClue({ run: RUN, model: spec('judge-a'), home, rubric: [file] });
    // Another rubric is another judging: MeQSum's answers are asked again, MeDiSumQA's come from the cache.
    expect(server.requests.length).toBe(sent + 4);
    expect(scores()['meqsum/1']!.judge).toBe(1);
  });
});

describe('jurySpecs', () => {
  it('reads a comma list, and refuses an empty jury or a judge named twice', () => {
    expect(jurySpecs(' a , b ')).toEqual(['a', 'b']);
    expect(() => jurySpecs(' , ')).toThrow('--model " , " names no judge.');
    expect(() => jurySpecs('a,b,a')).toThrow(
      '--model names the judge "a" twice; each judge of a jury counts once.',
    );
  });
});

describe("the judge's score under a protocol that counts the first item twice", () => {
  it("is the plain mean of the items the jury scored, while the papers' metrics keep the protocol's averaging", () => {
    const run = testRun({
      id: 'twice',
      suite: 'clue',
      label: 'model',
      parameters: { protocol: { name: 'paper-2024' } },
    });
    const judged = [0.9, 0.3, 0.6];
    const results = judged.map((judge, order) => ({
      ...testResultRecord({ runId: 'twice', sampleId: `meqsum/${order}`, task: 'meqsum', params: { order } }),
      scores: { rougeL: order === 0 ? 0.5 : 0.2, judge },
      promptHash: null,
      createdAt: '2026-11-27T00:00:00.000Z',
      parsed: null,
      gold: null,
    }));
    const report = buildClueReport([{ run, results }], { intervals: { resamples: 200, seed: 1 } });
    const scores = report.runs[0]!.scores.meqsum!;
    // 100 · (0.9 + 0.3 + 0.6) / 3, not (2 · 0.9 + 0.3 + 0.6) / 4 = 67.5.
    expect(scores.judge).toBeCloseTo(60, 10);
    // paper-2024 averages MeQSum as the published code: the first item twice, (2 · 0.5 + 0.2 + 0.2) / 4.
    expect(scores.rougeL).toBeCloseTo(35, 10);
  });
});
