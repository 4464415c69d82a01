import { describe, expect, it } from 'vitest';
import { testResult, testRun } from '../../test/support/test-run.js';
import type { StoredResult } from '../core/run-record.js';
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

describe('prompt-cache tokens and list price in the usage table', () => {
  const usage = [
    { cachedInputTokens: 800, cacheWriteTokens: 100, cost: 0.0012, listCost: 0.003 },
    { cachedInputTokens: 900, cacheWriteTokens: 0, cost: 0.001, listCost: 0.003 },
  ];
  function run(prices: Record<string, number> | null, rows: Array<Partial<StoredResult>>) {
    return {
      run: testRun({ id: 'run-cache', label: 'claude', model: { prices } }),
      results: rows.map((fields, index) =>
        testResult({
          sampleId: `s${index}`,
          task: 'niah',
          gold: null,
          rawOutput: 'A',
          inputTokens: 1000,
          outputTokens: 10,
          ...fields,
        }),
      ),
    };
  }

  it('sums cached and cache-written tokens, what was paid and the list price', () => {
    const rows = usageByTask([
      run(
        { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75 },
        usage,
      ),
    ]);
    expect(rows[0]).toMatchObject({
      inputTokens: 2000,
      cachedInputTokens: 1700,
      cacheWriteTokens: 100,
      cachedAtInputPrice: false,
    });
    expect(rows[0]!.cost).toBeCloseTo(0.0022, 12);
    expect(rows[0]!.listCost).toBeCloseTo(0.006, 12);
    const text = renderUsageText(rows);
    expect(text).toMatch(
      /Input tokens\s+Cached tokens\s+Cache-write tokens\s+Output tokens\s+Cost\s+List price/,
    );
    expect(text).toMatch(/2,000\s+1,700\s+100\s+20\s+0\.0022\s+0\.0060/);
    expect(text).toContain('List price: the same sent requests with every input token at the input price');
    expect(text).toContain(
      'Cached tokens: of the input tokens, those the provider read from its prompt cache',
    );
    expect(text).not.toContain('No cached-input');
  });

  it('no cache figures: no cache-write column; a result stored before list prices were kept counts its cost', () => {
    const rows = usageByTask([run({ inputPerMillion: 1, outputPerMillion: 1 }, [{ cost: 0.002 }])]);
    expect(rows[0]).toMatchObject({ cachedInputTokens: null, cacheWriteTokens: null, listCost: 0.002 });
    const text = renderUsageText(rows);
    expect(text).not.toContain('Cache-write');
    expect(text).toMatch(/1,000\s+—\s+10\s+0\.0020\s+0\.0020/);
  });

  it('says so where cached tokens were priced at the input price (no cached price known)', () => {
    const rows = usageByTask([run({ inputPerMillion: 1, outputPerMillion: 1 }, usage)]);
    expect(rows[0]!.cachedAtInputPrice).toBe(true);
    expect(renderUsageText(rows)).toContain(
      'No cached-input (or cache-write) price is known for claude (none in the config, none documented for the model): those tokens are priced at the input price',
    );
    // Written tokens without a write price are priced at the input price too.
    const cachedOnly = { inputPerMillion: 1, outputPerMillion: 1, cachedInputPerMillion: 0.1 };
    expect(usageByTask([run(cachedOnly, usage)])[0]!.cachedAtInputPrice).toBe(true);
    expect(usageByTask([run(cachedOnly, [usage[1]!])])[0]!.cachedAtInputPrice).toBe(false);
    // Without prices there is nothing priced at all.
    expect(usageByTask([run(null, usage)])[0]!.cachedAtInputPrice).toBe(false);
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

describe('explicit prompt caches in the usage table', () => {
  it("add their making and storage to the task's cost, and say how much of it they are", () => {
    const costs = new Map([['run-reasoning', new Map([['niah', 0.0005]])]]);
    const rows = usageByTask([runWith([null, null])], (runId) => costs.get(runId) ?? new Map());
    expect(rows[0]!.cost).toBeCloseTo(0.0025, 12);
    expect(rows[0]!.explicitCacheCost).toBe(0.0005);
    // Without any, the row is as it was.
    expect(usageByTask([runWith([null, null])])[0]).not.toHaveProperty('explicitCacheCost');
    expect(renderUsageText(rows)).toContain('the explicit prompt caches (Gemini’s) made for the task');
  });
});
