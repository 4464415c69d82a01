import { describe, expect, it } from 'vitest';
import { testResult, testRun } from '../../test/support/test-run.js';
import { CostBudget } from '../runner/cost-budget.js';
import type { SampleRequest } from '../runner/sample-request.js';
import { renderUsageText, usageByTask } from './usage-table.js';

function runWith(reasoningTokens: Array<number | null>) {
  return {
    run: testRun({ id: 'run-reasoning' }),
    results: reasoningTokens.map((reasoning, index) =>
      testResult({
        sampleId: `s${index}`,
        task: 'niah',
        gold: null,
        rawOutput: 'A',
        inputTokens: 10,
        outputTokens: 100,
        reasoningTokens: reasoning,
        cost: 0.001,
      }),
    ),
  };
}

describe('reasoning tokens in the usage table', () => {
  it('are summed apart from the output tokens, in a column of their own', () => {
    const rows = usageByTask([runWith([80, null, 40])]);
    expect(rows[0]).toMatchObject({ outputTokens: 300, reasoningTokens: 120 });
    const text = renderUsageText(rows);
    expect(text).toMatch(/Output tokens\s+│?\s*Reasoning tokens/);
    expect(text).toContain('they are billed as output');
  });

  it('leave the table as it was when no provider reported any', () => {
    const text = renderUsageText(usageByTask([runWith([null, null])]));
    expect(text).not.toContain('Reasoning');
  });
});

describe('a thinking budget in a spending cap', () => {
  it('bounds a request by its answer limit plus the budget', () => {
    const budget = new CostBudget(1, { inputPerMillion: 0, outputPerMillion: 1_000_000 });
    const request = { promptTokens: 0, messages: [], parameters: { temperature: 1, maxOutputTokens: 100 } };
    expect(budget.bound(request as unknown as SampleRequest)).toBe(100);
    const thinking = { ...request, parameters: { ...request.parameters, thinkingBudget: 2000 } };
    expect(budget.bound(thinking as unknown as SampleRequest)).toBe(2100);
  });
});
