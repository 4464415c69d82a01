import { describe, expect, it } from 'vitest';
import { juryVerdicts, type ValidationItem, validateTask } from './judge-validation.js';
import { MIN_LABELLED, validateRun } from './judge-validation-runs.js';

/** An item of run "r": the jury's verdicts per juror, people's grades (verdict on criterion "x", score). */
function item(
  order: number,
  fields: Partial<ValidationItem> & { people?: Array<[string, boolean, number]> } = {},
): ValidationItem {
  const { people = [], ...rest } = fields;
  return {
    runId: 'r',
    sampleId: `meqsum/${order}`,
    task: 'meqsum',
    answered: true,
    judgeScore: 0.5,
    judges: {},
    grades: people.map(([reviewer, met, score]) => ({ reviewer, verdicts: { x: met }, score })),
    ...rest,
  };
}

describe('the jury verdict per criterion', () => {
  it('is met when more than half of the jurors that scored say so; a tie is not met', () => {
    expect(juryVerdicts({ a: { x: true }, b: { x: false } })).toEqual({ x: false });
    expect(juryVerdicts({ a: { x: true }, b: { x: false }, c: { x: true } })).toEqual({ x: true });
    expect(juryVerdicts({ a: { x: true } })).toEqual({ x: true });
    expect(juryVerdicts({})).toBeUndefined();
  });
});

describe('judge against people', () => {
  it("Cohen's kappa of a 2 × 2 table (4 met/met, 1 met/not, 2 not/met, 3 not/not): κ = 0.4, with the met rates", () => {
    // p_o = 7/10; the judge says met 5/10, people 6/10: p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.2/0.5.
    const cells: Array<[boolean, boolean]> = [
      ...Array<[boolean, boolean]>(4).fill([true, true]),
      [true, false],
      ...Array<[boolean, boolean]>(2).fill([false, true]),
      ...Array<[boolean, boolean]>(3).fill([false, false]),
    ];
    const items = cells.map(([judge, human], order) =>
      // Three jurors: "b" always says met, "a" and "c" the table's verdict: the majority is a's verdict.
      item(order, {
        judges: { a: { x: judge }, b: { x: true }, c: { x: judge } },
        people: [['ann', human, 1]],
      }),
    );
    const validation = validateTask('meqsum', items, { resamples: 200 });
    const [jury] = validation.criteria.jury;
    expect(jury).toMatchObject({ criterion: 'x', n: 10, items: 10, judgeRate: 0.5, humanRate: 0.6 });
    expect(jury!.kappa.estimate).toBeCloseTo(0.4, 12);
    expect(jury!.kappa.lower).toBeLessThan(0.4);
    // Each juror alone: a as the jury; b always met (κ = 0: no agreement beyond chance).
    expect(validation.criteria.judges.a![0]!.kappa.estimate).toBeCloseTo(0.4, 12);
    expect(validation.criteria.judges.b![0]!.kappa.estimate).toBe(0);
    expect(validation.labelled).toBe(10);
  });

  it('ICC(A,1) and ICC(C,1) of judge score vs people: 9/13 and 0.6 by hand; ICC(1,1) of two people: 5/7', () => {
    // Rows (0.2, 0.4), (0.5, 0.5), (0.8, 0.6): grand mean 0.5, both column means 0.5. SS_rows = 0.16,
    // SS_cols = 0, SS_err = 0.04: BMS = 0.08, JMS = 0, EMS = 0.02, WMS = 0.04/3.
    // ICC(A,1) = (0.08 − 0.02)/(0.08 + 0.02 + 2(0 − 0.02)/3) = 9/13; ICC(C,1) = 0.06/0.1;
    // ICC(1,1) = (0.08 − 0.04/3)/(0.08 + 0.04/3) = 5/7.
    const pairs = [
      [0.2, 0.4],
      [0.5, 0.5],
      [0.8, 0.6],
    ];
    const judged = pairs.map(([judge, human], order) =>
      item(order, { judgeScore: judge!, judges: { a: { x: true } }, people: [['ann', true, human!]] }),
    );
    const icc = validateTask('meqsum', judged).icc;
    expect('agreement' in icc && icc.agreement.estimate).toBeCloseTo(9 / 13, 12);
    expect('consistency' in icc && icc.consistency.estimate).toBeCloseTo(0.6, 12);
    const doubled = pairs.map(([first, second], order) =>
      item(order, {
        people: [
          ['zoe', order > 0, second!],
          ['ann', true, first!],
        ],
      }),
    );
    const people = validateTask('meqsum', doubled).people;
    expect(people.items).toBe(3);
    expect('oneWay' in people.icc && people.icc.oneWay.estimate).toBeCloseTo(5 / 7, 12);
    // Ann (first by name) says met on all three, Zoe on two: agreement 2/3, rates 1 and 2/3.
    expect(people.criteria[0]).toMatchObject({ criterion: 'x', items: 3, firstRate: 1 });
    expect(people.criteria[0]!.observedAgreement).toBeCloseTo(2 / 3, 12);
    expect(validateTask('meqsum', judged).people).toMatchObject({ items: 0, icc: { reason: /at least 2/ } });
  });
});

describe('the corrected score of a run', () => {
  // Labelled: people Y = (1, 0, 1, 0.5) (Y of the third the mean of two reviewers), judge f = (0.9, 0.2,
  // 0.7, 0.5); unlabelled judge f̃ = (0.4, 1, 0, 0.6); and 2 items never answered (judge 0 by rule).
  const labelled: Array<[number, number[]]> = [
    [0.9, [1]],
    [0.2, [0]],
    [0.7, [1, 1]],
    [0.5, [0.5]],
  ];
  const items = [
    ...labelled.map(([judge, people], order) =>
      item(order, {
        judgeScore: judge,
        grades: people.map((score, at) => ({ reviewer: `p${at}`, verdicts: {}, score })),
      }),
    ),
    ...[0.4, 1, 0, 0.6].map((judge, order) => item(10 + order, { judgeScore: judge })),
    item(20, { answered: false, judgeScore: 0 }),
    item(21, { answered: false, judgeScore: 0 }),
    // An answer no judge could score: out of every number, as out of the judge score.
    item(30, { judgeScore: undefined, grades: [{ reviewer: 'p0', verdicts: {}, score: 1 }] }),
  ];

  it('PPI++ by the formula: λ = Cov(Y, f)/((1 + n/N)·Var(f, all)), θ = λ·mean(f̃) + mean(Y − λf), ×8/10 answered', () => {
    const run = validateRun('r', items);
    // Cov(Y, f) = 0.1375 (n − 1); Var of all 8 judge scores = 0.114107142857…; n/N = 1.
    const lambda = 0.1375 / (2 * 0.11410714285714287);
    const theta = lambda * 0.5 + (1 + 0 + 1 + 0.5 - lambda * 2.3) / 4;
    expect(run.corrected!.lambda).toBeCloseTo(lambda, 12);
    expect(run.corrected!.estimate).toBeCloseTo(0.8 * theta, 12);
    expect(theta).toBeCloseTo(0.57981220657277, 12);
    // se² = λ²·s²(f̃)/N + s²(Y − λf)/n, scaled by the same 8/10.
    const residuals = labelled.map(([judge], index) => [1, 0, 1, 0.5][index]! - lambda * judge);
    const residualMean = residuals.reduce((sum, value) => sum + value, 0) / 4;
    const residualVariance = residuals.reduce((sum, value) => sum + (value - residualMean) ** 2, 0) / 3;
    const unlabelledVariance = (0.01 + 0.25 + 0.25 + 0.01) / 3;
    const se = Math.sqrt((lambda ** 2 * unlabelledVariance) / 4 + residualVariance / 4);
    expect(run.corrected!.standardError).toBeCloseTo(0.8 * se, 12);
    expect(run.corrected!.upper - run.corrected!.estimate).toBeCloseTo(0.8 * 1.959963984540054 * se, 9);
    expect(run).toMatchObject({
      items: 10,
      answered: 8,
      notAnswered: 2,
      unscored: 1,
      labelled: 4,
      labelledUnscored: 1,
    });
    expect(run.labelledShare).toBe(0.5);
    // The judge score as the report: the mean over its 10 items, (2.3 + 2.0 + 0)/10.
    expect(run.judgeScore!.estimate).toBeCloseTo(0.43, 12);
    // People alone over the labelled: mean(Y) = 0.625, on the same footing ×0.8.
    expect(run.peopleOnly!.estimate).toBeCloseTo(0.5, 12);
  });

  it(`fewer than ${MIN_LABELLED} labelled items: flagged with a warning; fewer than 2: no number at all`, () => {
    expect(validateRun('r', items)).toMatchObject({ enough: false, warning: /only 4 labelled items/ });
    const one = validateRun('r', items.slice(3));
    expect(one).toMatchObject({
      labelled: 1,
      corrected: null,
      peopleOnly: null,
      warning: /1 labelled item: no corrected score/,
    });
    const many = Array.from({ length: 24 }, (_, order) =>
      item(order, {
        judgeScore: (order % 5) / 4,
        grades: order < 12 ? [{ reviewer: 'p', verdicts: {}, score: (order % 3) / 2 }] : [],
      }),
    );
    expect(validateRun('r', many)).toMatchObject({ enough: true, warning: null, labelled: 12 });
  });
});
