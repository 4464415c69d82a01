import { z } from 'zod';
import type { Sample } from '../../../src/core/sample.js';
import type { Suite } from '../../../src/core/suite.js';
import type { Task } from '../../../src/core/task.js';
import { renderReportTable } from '../../../src/report/text-table.js';

/**
 * A fourth suite, whole, as docs/adding-a-suite.md walks through it: "arith", sums of small
 * numbers in two languages. In medbench it would be src/suites/arith/ plus one line in SUITES.
 */

// 1. Gold data: a zod schema; the runner checks every sample against it before a request goes out.
const sumGold = z.object({ total: z.number().int() });
type SumGold = z.infer<typeof sumGold>;

// 2. A task: parse, then score. `sample.gold` arrives typed.
export const sumTask: Task<SumGold> = {
  suite: 'arith',
  name: 'sum',
  metrics: ['exact'],
  primaryMetric: 'exact',
  gold: sumGold,
  failedScores: () => ({ exact: 0 }),
  score({ sample, rawOutput }) {
    const match = /-?\d+/.exec(rawOutput);
    if (!match) return { status: 'bad_format', parsed: null, scores: { exact: 0 } };
    const parsed = Number(match[0]);
    return { status: 'ok', parsed, scores: { exact: parsed === sample.gold.total ? 1 : 0 } };
  },
};

// 3. A builder: samples in the dataset-file shape (core's Sample).
export function buildArithSamples(pairs: ReadonlyArray<[number, number]>): Sample[] {
  return pairs.flatMap(([left, right]) =>
    (['en', 'de'] as const).map((language) => {
      const prompt =
        language === 'en'
          ? `What is ${left} + ${right}? Answer with the number.`
          : `Was ist ${left} + ${right}?`;
      return {
        id: `sum-${language}-${left}-${right}`,
        suite: 'arith',
        task: 'sum',
        params: { language, size: left + right < 10 ? 'small' : 'large' },
        prompt,
        promptChars: prompt.length,
        promptTokens: {},
        gold: { total: left + right },
      };
    }),
  );
}

// 4. Aggregation: one JSON report, the document every form (text, --json, HTML) shows; its zod
//    schema checks what `report --json` prints and is part of schemas/report.schema.json.
const arithReportSchema = z.strictObject({
  suite: z.literal('arith'),
  runs: z.array(
    z.strictObject({
      runId: z.string(),
      label: z.string(),
      accuracy: z.record(z.string(), z.number().nullable()),
    }),
  ),
});
export type ArithReport = z.infer<typeof arithReportSchema>;

const LANGUAGES = ['en', 'de'] as const;

// 5. The suite: what the report command, the viewer and `run --dataset` need to know of it.
export const arithSuite: Suite<ArithReport> = {
  name: 'arith',
  title: 'Arith',
  tasks: { sum: sumTask as Task },
  firstRun: 'Run `medbench run --dataset arith.jsonl --model <spec>` first.',
  groupOf: (row) => `${row.task}-${row.params.language}`,
  // The viewer's sample list offers a menu of this param's values (`size=small`).
  sampleFilters: [{ param: 'size', label: 'sum size' }],
  primaryMetric: 'exact',
  reportSchema: arithReportSchema,
  report: (runs) => ({
    suite: 'arith',
    runs: runs.map(({ run, results }) => ({
      runId: run.id,
      label: run.label,
      accuracy: Object.fromEntries(
        LANGUAGES.map((language) => {
          const scored = results.filter((result) => result.params.language === language);
          const correct = scored.filter((result) => result.scores.exact === 1).length;
          return [language, scored.length === 0 ? null : (100 * correct) / scored.length];
        }),
      ),
    })),
  }),
  // The tables the text shows, by name (`report --csv` writes each).
  tables: (report) => [
    {
      name: 'accuracy',
      title: 'Arith: accuracy (%) per language',
      header: ['Model', ...LANGUAGES],
      rows: report.runs.map((run) => [
        run.label,
        ...LANGUAGES.map((language) => run.accuracy[language]?.toFixed(1) ?? '—'),
      ]),
    },
  ],
  renderText: (report) => arithSuite.tables(report, {}).map(renderReportTable).join('\n\n'),
  renderHtml: (report) => `<!doctype html><title>Arith</title><pre>${report.runs.length} runs</pre>`,
  runCount: (report) => report.runs.length,
  leaderboard: (runs) => {
    const report = arithSuite.report(runs, {});
    return {
      suite: 'arith',
      variants: [
        { key: 'accuracy', label: 'Accuracy', columns: LANGUAGES.map((key) => ({ key, label: key })) },
      ],
      rows: report.runs.map((run, index) => ({
        runId: run.runId,
        label: run.label,
        imported: false,
        samples: runs[index]!.results.length,
        values: { accuracy: run.accuracy },
      })),
    };
  },
};
