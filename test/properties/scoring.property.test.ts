import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../../src/core/sample.js';
import type { Task } from '../../src/core/task.js';
import { readDataset } from '../../src/runner/dataset-file.js';
import {
  buildMeDiSumCode,
  buildMeDiSumQa,
  buildMedNli,
  buildMeQSum,
  buildProblemSummary,
  type ClueBuildContext,
} from '../../src/suites/clue/build-clue-samples.js';
import { createClueTasks } from '../../src/suites/clue/clue-tasks.js';
import { ConceptMatcher } from '../../src/suites/clue/concept-matcher.js';
import {
  loadIcd10Codes,
  loadLongHealth,
  loadMeDiSumCode,
  loadMeDiSumQa,
  loadMedNli,
  loadProblemSummary,
} from '../../src/suites/clue/load-tasks.js';
import { buildLongHealth } from '../../src/suites/clue/longhealth.js';
import { loadMeQSum } from '../../src/suites/clue/meqsum.js';
import { loadMrconso } from '../../src/suites/clue/mrconso.js';
import { CLUE_PROTOCOL } from '../../src/suites/clue/protocols.js';
import { medodysseyTasks } from '../../src/suites/medodyssey/index.js';
import { getTokenizer } from '../../src/tokenizers/registry.js';
import { ROOT, runCli } from '../e2e/cli.js';
import { writeClueFixtures } from '../support/clue-fixtures.js';
import { fuzzParameters, onlyMedbenchErrorsSync } from '../support/fuzz.js';

/**
 * Scoring a model's output is parsing text nobody controls: for every task of every suite, any
 * output scores without an exception, every score is a fraction in [0, 1] (or a count, for the
 * set metrics), and a set task's found and missed items add up to its gold items.
 */

const scratch = mkdtempSync(join(tmpdir(), 'medbench-scoring-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Outputs models give: anything, JSON with the tasks' keys and odd values, fences, answer phrases. */
const output = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc
    .tuple(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('answer', '答案', 'count', 'counts', 'triplets', 'terms', 'items', 'answers', '三元组'),
      fc.jsonValue({ maxDepth: 3 }),
      fc.string({ maxLength: 20 }),
    )
    .map(
      ([before, key, value, after]) =>
        `${before}\`\`\`json\n{"${key}": ${JSON.stringify(value)}}\n\`\`\`${after}`,
    ),
  fc
    .tuple(
      fc.constantFrom('The correct answer is ', 'entailment', 'contradiction', 'A:', 'J18.9 I10 E11.9'),
      fc.string({ maxLength: 30 }),
    )
    .map(([phrase, rest]) => phrase + rest),
  fc.string({
    unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'a', '1', ' ', '\n', '。', '|'),
    maxLength: 50,
  }),
);

function checkScores(tasks: Readonly<Record<string, Task>>, samples: readonly Sample[]): void {
  fc.assert(
    fc.property(
      fc.constantFrom(...samples),
      output,
      fc.constantFrom('standard', 'compat') as fc.Arbitrary<'standard' | 'compat'>,
      (sample, rawOutput, mode) => {
        const task = tasks[sample.task]!;
        let scored: ReturnType<Task['score']> | undefined;
        onlyMedbenchErrorsSync(() => {
          scored = task.score({ sample, rawOutput, mode });
        });
        if (!scored) return;
        expect(Object.keys(scored.scores).sort()).toEqual([...task.metrics].sort());
        for (const [metric, value] of Object.entries(scored.scores)) {
          expect(Number.isFinite(value) && value >= 0).toBe(true);
          // Micro-averaged set metrics count items per sample; every other score is a fraction.
          if (['tp', 'fp', 'fn'].includes(metric)) expect(Number.isInteger(value)).toBe(true);
          else expect(value).toBeLessThanOrEqual(1);
        }
        // Every gold item is found or missed: tp + fn is the gold count, whatever the output.
        if ('tp' in scored.scores)
          expect(scored.scores.tp! + scored.scores.fn!).toBe(task.failedScores(sample).fn);
      },
    ),
    fuzzParameters(1500),
  );
}

describe('MedOdyssey scoring takes any output', () => {
  let samples: Sample[] = [];
  beforeAll(async () => {
    const out = join(scratch, 'all.jsonl');
    const built = await runCli([
      'build',
      'medodyssey',
      '--data',
      join(ROOT, 'samples', 'medodyssey'),
      '--sources',
      join(ROOT, 'samples', 'medodyssey-sources'),
      '--task',
      'niah,counting,kg,term,table,case',
      '--levels',
      '2000',
      '--counting-sentences',
      '2-3',
      '--out',
      out,
    ]);
    expect(built.code, built.stderr).toBe(0);
    samples = [...(await readDataset(out)).samples];
  });

  it('NIAH, Counting, KG, Term, Table and Case', () => {
    expect(new Set(samples.map((sample) => sample.task))).toEqual(
      new Set(['niah', 'counting', 'kg', 'term', 'table', 'case']),
    );
    checkScores(medodysseyTasks, samples);
  });
});

describe('CLUE scoring takes any output', () => {
  it.each(Object.keys(CLUE_PROTOCOL))('the six tasks under %s', async (name) => {
    const folder = join(scratch, `clue-${name}`);
    mkdirSync(folder);
    writeClueFixtures(folder);
    const protocol = CLUE_PROTOCOL[name as keyof typeof CLUE_PROTOCOL];
    const context: ClueBuildContext = {
      protocol,
      model: { instruct: true, systemRole: true },
      contextWindow: 8192,
    };
    const at = (file: string) => join(folder, file);
    const samples = [
      ...buildMedNli(loadMedNli(at('mli_test_v1.jsonl')), context),
      ...buildMeQSum(loadMeQSum(at('MeQSum_fixture.xlsx')), context),
      ...buildProblemSummary(loadProblemSummary(at('BioNLP2023-1A-Test.csv')), context),
      ...buildMeDiSumQa(loadMeDiSumQa(at('MeDiSumQA.json')), context),
      ...buildMeDiSumCode(loadMeDiSumCode(at('MeDiSumCode.json')), context),
      ...buildLongHealth(loadLongHealth(at('benchmark_v5.json')), {
        ...context,
        tokenizer: await getTokenizer('o200k_base'),
        seed: 1,
      }),
    ];
    const tasks = createClueTasks(
      {
        umls: new ConceptMatcher(await loadMrconso(at('MRCONSO.RRF'))),
        icd10Codes: loadIcd10Codes(at('icd10cm_codes_2024.txt')),
      },
      { protocol, modelId: 'Phi-3-mini' },
    );
    expect(new Set(samples.map((sample) => sample.task)).size).toBe(6);
    checkScores(tasks, samples);
  });
});
