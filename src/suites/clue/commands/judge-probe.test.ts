import { mkdtempSync, rmSync } from 'node:fs';
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
import { Store } from '../../../store/store.js';
import type { JudgeProbeRecord } from '../clue-judge-sensitivity.js';
import { buildClueReport, clueTables, renderClueHtml, renderClueText } from '../clue-report.js';
import { clueReportSchema } from '../clue-report-schema.js';
import { PADDING_SENTENCES, padAnswer } from '../judge-probes.js';
import { judgeClue } from './judge-clue.js';
import { judgeProbe } from './judge-probe.js';
import { renderJudgeProbes } from './judge-probe-command.js';

/** Answers of 25 to 39 characters: the length-biased judge calls only a padded one (40+) long. */
const ANSWERS = [
  'What treats a bad cough now?',
  'Is aspirin safe with ibuprofen?',
  'Why do knees ache at night?',
];

/**
 * Scripted judges: "fair-judge" meets the first positive criterion whatever the order or length;
 * "position-judge" meets every positive one when the answer block comes first; "length-judge"
 * when the answer is 40 characters or more. An answer starting "broken" gets malformed JSON.
 */
function biasedJudge(request: RecordedRequest) {
  const { criteria, answer, answerFirst, model } = readJudgeRequest(request);
  if (answer.startsWith('broken')) return { kind: 'answer' as const, text: '{"criteria": [' };
  const generous =
    (model === 'position-judge' && answerFirst) || (model === 'length-judge' && answer.length >= 40);
  return judgeVerdicts(criteria, (index, points) => points > 0 && (index === 0 || generous));
}

const RUN = 'probedrun01';

function writeRun(home: string): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    store.ensureRun(testRun({ id: RUN, suite: 'clue', label: 'model', parameters: {} }));
    for (const [order, answer] of [...ANSWERS, 'broken'].entries())
      store.putResult(
        testResultRecord({
          runId: RUN,
          sampleId: `meqsum/${order}`,
          task: 'meqsum',
          params: { order },
          gold: { reference: 'Which medicines help?' },
          prompt: `Summarize: question ${order}`,
          rawOutput: answer,
          parsed: answer,
          scores: { rougeL: 0.5 },
        }),
      );
  } finally {
    store.close();
  }
}

/** MeQSum's shipped rubric: 19 positive points, the first criterion worth 5. */
const MOVE = 100 * (1 - 5 / 19);

describe('medbench judge-probe (biased scripted judges on 127.0.0.1)', () => {
  let server: LlmTestServer;
  let home: string;
  let first: Awaited<ReturnType<typeof judgeProbe>>;
  let judged: { scores: unknown; judge: unknown };
  const spec = (model: string) => `openai-compatible:${model}@${server.url}/v1`;
  const jury = () => ['fair-judge', 'position-judge', 'length-judge'].map(spec).join(',');
  const graded = () => {
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    try {
      const run = store.getRun(RUN)!;
      return { run, results: store.results(RUN) };
    } finally {
      store.close();
    }
  };
  const record = (records: readonly JudgeProbeRecord[], judge: string, probe: string) =>
    records.find((entry) => entry.judge.includes(judge) && entry.probe === probe)!;

  beforeAll(async () => {
    server = await startLlmTestServer({ fallback: biasedJudge });
    home = mkdtempSync(join(tmpdir(), 'medbench-probe-'));
    writeRun(home);
    // The plain judging first: its score and record must survive the probes untouched.
    await judgeClue({ run: RUN, model: spec('fair-judge'), home, maxRetries: 0 });
    const before = graded();
    judged = { scores: before.results.map((result) => result.scores), judge: before.run.parameters.judge };
    first = await judgeProbe({ run: RUN, model: jury(), home, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('reuses the plain grading that exists and sends each probe once per judge and item', () => {
    // fair-judge: 4 plain, then 4 swap + 4 padding; the two others 12 each.
    expect(server.requests).toHaveLength(4 + 8 + 12 + 12);
    const swapped = server.requests.filter((request) => readJudgeRequest(request).answerFirst);
    expect(swapped).toHaveLength(12);
    const padded = server.requests
      .map(readJudgeRequest)
      .filter(({ answer }) => PADDING_SENTENCES.some((sentence) => answer.includes(sentence)));
    expect(padded).toHaveLength(12);
    // Twice its characters or more: the model's answers (25 to 39) now read as long.
    expect(padded.filter(({ answer }) => answer.length >= 40)).toHaveLength(9);
  });

  it('a position-biased judge moves under swap alone, a length-biased one under padding alone, a fair one under neither', () => {
    expect(first.written).toBe(true);
    expect(first.records).toHaveLength(6);
    const moved = record(first.records, 'position-judge', 'swap').tasks.meqsum!;
    expect(moved).toMatchObject({ n: 3, changed: 3, unscored: 1 });
    expect(moved.change!.estimate).toBeCloseTo(MOVE, 9);
    expect(moved.change!.lower).toBeGreaterThan(0);
    expect(moved.criteria['keeps-focus']).toEqual({ metToNot: 0, notToMet: 0 });
    expect(Object.values(moved.criteria).filter((flips) => flips.notToMet === 3)).toHaveLength(5);
    const long = record(first.records, 'length-judge', 'padding');
    expect(long.padFactor).toBe(2);
    expect(long.tasks.meqsum!.change!.lower).toBeCloseTo(MOVE, 9);
    for (const [judge, probe] of [
      ['position-judge', 'padding'],
      ['length-judge', 'swap'],
      ['fair-judge', 'swap'],
      ['fair-judge', 'padding'],
    ] as const)
      expect(record(first.records, judge, probe).tasks.meqsum).toMatchObject({
        n: 3,
        changed: 0,
        change: { estimate: 0, lower: 0, upper: 0 },
      });
    const printed = renderJudgeProbes(first);
    expect(printed).toMatch(/^Judge sensitivity/);
    expect(printed).toMatch(
      /position-judge\s+swap\s+3\s+\+73\.7\s+\[\+73\.7, \+73\.7\]\s+3 \(100%\)\s+1\s+sensitive\s+keeps-question-type 3\/3 ↑3;/m,
    );
    expect(printed).toMatch(
      /fair-judge\s+padding ×2\s+3\s+0\.0\s+\[0\.0, 0\.0\]\s+0 \(0%\)\s+1\s+robust\s+none$/m,
    );
  });

  it("leaves the graded run's judge score and parameters.judge as they were, and stores the records", () => {
    const { run, results } = graded();
    expect(results.map((result) => result.scores)).toEqual(judged.scores);
    expect(run.parameters.judge).toEqual(judged.judge);
    expect(run.parameters.judgeProbes).toEqual(first.records);
  });

  it('probing again sends nothing and finds the same; a new factor replaces that judge’s padding record only', async () => {
    const sent = server.requests.length;
    const again = await judgeProbe({ run: RUN, model: jury(), home });
    expect(server.requests.length).toBe(sent);
    expect(again.records).toEqual(first.records);
    await judgeProbe({ run: RUN, model: spec('length-judge'), home, probes: ['padding'], padFactor: 3 });
    // Only the padded answers are new: the plain grading is the stored one, and "broken" (6
    // characters) is padded by the same one sentence at both factors, so its request is the cache's.
    const padding = (factor: number) =>
      padAnswer('broken', { sampleId: 'meqsum/3', reference: 'Which medicines help?', factor });
    expect(padding(3)).toBe(padding(2));
    expect(server.requests.length).toBe(sent + 3);
    const records = graded().run.parameters.judgeProbes as JudgeProbeRecord[];
    expect(records).toHaveLength(6);
    expect(record(records, 'length-judge', 'padding').padFactor).toBe(3);
    expect(record(records, 'position-judge', 'swap')).toEqual(
      record(first.records, 'position-judge', 'swap'),
    );
  });

  it('the report shows a Judge sensitivity table (text, HTML, CSV name) and describes it in its JSON schema', () => {
    const { run, results } = graded();
    const report = buildClueReport([{ run, results }], {});
    expect(report.runs[0]!.judgeProbes).toHaveLength(6);
    expect(clueReportSchema.safeParse(JSON.parse(JSON.stringify(report))).error).toBeUndefined();
    expect(clueTables(report).map((table) => table.name)).toContain('judge-sensitivity');
    expect(renderClueText(report)).toMatch(/Judge sensitivity[\s\S]*length-judge\s+padding ×3/);
    expect(renderClueHtml(report)).toContain('<h2>Judge sensitivity</h2>');
  });

  it('--max-cost caps every run it makes: at 0 nothing is sent and no record changes', async () => {
    const config = join(home, 'medbench.config.json');
    writePricedJudgeConfig(config, server.url, 'fair-judge-priced');
    const before = graded().run.parameters;
    const sent = server.requests.length;
    const stopped = await judgeProbe({ run: RUN, model: 'priced', home, config, maxCost: 0 });
    expect(stopped.written).toBe(false);
    expect(renderJudgeProbes(stopped)).toMatch(/no sensitivity was written/);
    expect(server.requests.length).toBe(sent);
    expect(graded().run.parameters).toEqual(before);
  });

  it("refuses a judge the data may not go to before anything is sent (the graded run's rules)", async () => {
    const store = new Store(join(home, 'medbench.sqlite'));
    try {
      store.recipes.put(RUN, MARKED_RESTRICTED);
    } finally {
      store.close();
    }
    const sent = server.requests.length;
    const error = await judgeProbe({
      run: RUN,
      model: REMOTE_JUDGE,
      home,
    }).catch((caught: unknown) => caught);
    expect(MedbenchError.is(error) && error.code).toBe('DATA_RESTRICTED');
    expect(server.requests.length).toBe(sent);
  });
});
