import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIES_COLOURS } from '../../src/report/color-scale.js';
import { Store } from '../../src/store/store.js';
import { demoWithPublished, ROOT, runCli, type startCli, startViewer, temporaryHome } from './cli.js';

/**
 * The viewer in Chromium as a first hour's user reads it (issue 35): a run's model and parameters
 * as fields, compare scores as numbers, short dataset ids that copy whole, the leaderboard ranked
 * with an average, and ten radar series told apart by colour and by marker and dash.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'viewer', 'readable');
const XSS = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';
const home = temporaryHome();
/** The published release (MEDBENCH_SHARED_DATA=<shared/data>): ten models, none with En.Counting. */
const release = process.env.MEDBENCH_SHARED_DATA
  ? join(process.env.MEDBENCH_SHARED_DATA, 'medodyssey')
  : undefined;
let browser: Browser;
let context: BrowserContext;
let viewer: ReturnType<typeof startCli>;
let url = '';
const ids = { baseline: '', gpt4o: '', datasetId: '' };
/** Copies of the baseline: model-1 … model-6 get more NIAH answers right the higher their number; two tie. */
const COPIES = ['model-1', 'model-2', 'model-3', 'model-4', 'model-5', 'model-6', 'tie-b', 'tie-a'];

function addRuns(): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    const runs = store.listRuns({ suite: 'medodyssey' });
    const baseline = runs.find((run) => run.source === 'medbench')!;
    ids.baseline = baseline.id;
    ids.datasetId = baseline.datasetId;
    ids.gpt4o = runs.find((run) => run.label.startsWith('GPT-4o'))!.id;
    const results = store.results(baseline.id);
    store.transaction(() => {
      COPIES.forEach((label, position) => {
        const id = `copy${String(position).padStart(11, '0')}`;
        const right = label.startsWith('tie') ? 3 : position + 1;
        store.ensureRun({
          ...baseline,
          id,
          label,
          createdAt: new Date().toISOString(),
          // Strings from a config or a model file are untrusted: shown as text, never run.
          model: { ...baseline.model, description: `hostile ${XSS}` },
          parameters: { ...baseline.parameters, nested: { deep: { note: XSS } } },
        });
        results.forEach((result, index) => {
          const flip = result.task === 'niah' && index % 10 < right;
          store.putResult({
            ...result,
            runId: id,
            prompt: result.promptHash ? store.getPrompt(result.promptHash)! : null,
            scores: flip ? { esm: 1, ssm: 1 } : result.scores,
          });
        });
      });
    });
  } finally {
    store.close();
  }
}

async function open(route: string): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${url}#/${route}`);
  await page.locator('#app h1').first().waitFor();
  return page;
}

describe.skipIf(!existsSync(CHROMIUM))('the viewer reads well in the first hour (Chromium)', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await demoWithPublished(home);
    addRuns();
    ({ viewer, url } = await startViewer(home));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    viewer?.child.kill('SIGINT');
    await viewer?.done;
    rmSync(home, { recursive: true, force: true });
  });

  it("shows an imported run's model description and parameters as fields with dotted keys, long values folded", async () => {
    const page = await open(`run?id=${ids.gpt4o}`);
    const facts = (await page.locator('#run-facts').textContent())!;
    expect(facts).not.toMatch(/[{}]|":/);
    const field = async (list: string, key: string) =>
      page.locator(`#${list} > dt`, { hasText: new RegExp(`^${key.replaceAll('.', '\\.')}$`) });
    await expect((await field('run-model', 'modelId')).locator('+ dd').textContent()).resolves.toBe('gpt-4o');
    await expect((await field('run-parameters', 'temperature')).locator('+ dd').textContent()).resolves.toBe(
      '0',
    );
    await expect(
      (await field('run-parameters', 'release.files.0.file')).locator('+ dd').textContent(),
    ).resolves.toBe('niah_result/en_gpt-4o_v1.jsonl');
    // The KG file's 97 missing ids: folded to a line, the whole list one click away.
    const missing = (await field('run-parameters', 'release.files.2.missing')).locator('+ dd');
    const folded = missing.locator('details');
    await expect(folded.locator('summary').textContent()).resolves.toMatch(
      /^3, 4, 5, .*… \(\d+ characters\)$/,
    );
    await expect(folded.getAttribute('open')).resolves.toBeNull();
    await folded.locator('summary').click();
    await expect(folded.locator('.folded').textContent()).resolves.toMatch(/^3, 4, 5, [\d, ]+, 98, 99$/);
    await page.screenshot({ path: join(ARTIFACTS, 'run-fields.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it("shows script payloads in a run's model and parameters as text, and runs none of them", async () => {
    const page = await open(`run?id=copy00000000000`);
    const note = page.locator('#run-parameters > dt', { hasText: /^nested\.deep\.note$/ });
    await expect(note.locator('+ dd').textContent()).resolves.toBe(XSS);
    const description = page.locator('#run-model > dt', { hasText: /^description$/ });
    await expect(description.locator('+ dd').textContent()).resolves.toBe(`hostile ${XSS}`);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('shows compare scores as metric: value, formatted as the leaderboard does, never JSON', async () => {
    const page = await open(`compare?a=${ids.baseline}&b=copy00000000005&group=niah-en`);
    await page.locator('#disagreements').waitFor();
    const cells = await page.locator('#disagreements tbody tr > :nth-child(2)').allTextContents();
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect(cell).toMatch(/^ESM: \d+\.\d{2} · SSM: \d+\.\d{2}$/);
    const other = await page.locator('#disagreements tbody tr > :nth-child(3)').allTextContents();
    expect(other).toContain('ESM: 100.00 · SSM: 100.00');
    const pair = (await page.locator('#pairs .pair p').first().textContent())!;
    expect(pair).toMatch(/ — ESM: \d+\.\d{2} · SSM: \d+\.\d{2}$/);
    expect(await page.locator('#app').textContent()).not.toContain('{"esm"');
    await page.close();
  }, 60_000);

  it('shortens dataset ids to 12 characters, the whole id in the title and copied by its button', async () => {
    const short = `${ids.datasetId.slice(0, 12)}…`;
    for (const [route, scope] of [
      [`run?id=${ids.baseline}`, '#run-facts'],
      ['leaderboard?suite=medodyssey', '#leaderboard tbody tr:has(a[href$="copy00000000000"])'],
    ] as const) {
      const page = await open(route);
      const id = page.locator(`${scope} .dataset-id code`);
      await expect(id.textContent()).resolves.toBe(short);
      await expect(id.getAttribute('title')).resolves.toBe(ids.datasetId);
      expect(await page.locator(scope).textContent()).not.toContain(ids.datasetId);
      await page.locator(`${scope} .dataset-id button`).click();
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(ids.datasetId);
      await expect(page.locator(`${scope} .dataset-id button`).textContent()).resolves.toBe('Copied');
      await page.close();
    }
  }, 60_000);

  it('ranks the leaderboard by the average of its columns, ties by label, "—" where a column is missing', async () => {
    const page = await open('leaderboard?suite=medodyssey');
    const headers = await page.locator('#leaderboard thead th').allTextContents();
    // Rank, its bootstrap interval, the model …, the average, and the test against the next run down.
    expect(headers.slice(0, 3)).toEqual(['Rank', 'Rank interval', 'Model']);
    expect(headers.slice(-2)).toEqual(['Average', 'vs next']);
    const rows = await page
      .locator('#leaderboard tbody tr')
      .evaluateAll((nodes) => nodes.map((node) => [...node.children].map((cell) => cell.textContent ?? '')));
    const labels = rows.map((row) => row[2]!.replace(/(imported|limited)$/, ''));
    // model-6 has the most NIAH answers right; tie-a and tie-b share model-3's average and rank.
    expect(labels.slice(0, 3)).toEqual(['model-6', 'model-5', 'model-4']);
    expect(labels.indexOf('tie-a') + 1).toBe(labels.indexOf('tie-b'));
    const averages = rows.map((row) => row.at(-2)!);
    for (const [index, row] of rows.entries()) {
      const values = row.slice(5, -2);
      if (values.includes('—')) {
        expect(averages[index], labels[index]).toBe('—');
        expect(row[0], labels[index]).toBe('—');
      } else {
        const mean = values.map(Number).reduce((sum, value) => sum + value, 0) / values.length;
        expect(Number(averages[index]), labels[index]).toBeCloseTo(mean, 1);
      }
    }
    const ranked = averages.filter((value) => value !== '—').map(Number);
    expect(ranked).toEqual([...ranked].sort((a, b) => b - a));
    expect(averages.slice(ranked.length).every((value) => value === '—')).toBe(true);
    const ranks = rows.map((row) => row[0]);
    expect(ranks.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(ranks[labels.indexOf('tie-a')]).toBe(ranks[labels.indexOf('tie-b')]);
    // The published runs lack columns: no average, no rank, after every ranked run, by label.
    expect(labels.slice(-2)).toEqual(['Claude 3 Haiku (published)', 'GPT-4o (published)']);
    await page.close();
  }, 60_000);

  it.runIf(release !== undefined && existsSync(release))(
    'ranks the ten published models, leaving out of the average the column none of them has',
    async () => {
      const published = temporaryHome();
      const second = { viewer: undefined as ReturnType<typeof startCli> | undefined, url: '' };
      try {
        const imported = await runCli(['--home', published, 'import', 'medodyssey-outputs', release!]);
        expect(imported.code).toBe(0);
        Object.assign(second, await startViewer(published));
        const page = await context.newPage();
        await page.goto(`${second.url}#/leaderboard?suite=medodyssey`);
        await page.locator('#leaderboard').waitFor();
        await expect(page.locator('#leaderboard-note').textContent()).resolves.toContain(
          'En.Counting: no run has a value, left out of the average',
        );
        const ranks = await page.locator('#leaderboard tbody tr > :first-child').allTextContents();
        expect(ranks).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
        await expect(page.locator('#leaderboard tbody tr th').first().textContent()).resolves.toMatch(
          /^GPT-4o \(published\)/,
        );
        await page.screenshot({ path: join(ARTIFACTS, 'leaderboard-published.png'), fullPage: true });
        await page.close();
      } finally {
        second.viewer?.child.kill('SIGINT');
        await second.viewer?.done;
        rmSync(published, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it('draws ten radar series in ten colour-blind-safe colours, each with its own marker and dash', async () => {
    const page = await open('leaderboard?suite=medodyssey');
    const series = await page.locator('.radar g[data-series]').evaluateAll((nodes) =>
      nodes.map((node) => ({
        colour: node.querySelector('polygon')!.getAttribute('stroke'),
        dash: node.querySelector('polygon')!.getAttribute('stroke-dasharray') ?? '',
        marker: node.querySelector('[data-marker]')!.getAttribute('data-marker'),
        markers: node.querySelectorAll('[data-marker]').length,
      })),
    );
    expect(series.length).toBeGreaterThanOrEqual(10);
    const ten = series.slice(0, 10);
    expect(ten.map((entry) => entry.colour)).toEqual(SERIES_COLOURS.slice(0, 10));
    expect(new Set(ten.map((entry) => entry.marker)).size).toBe(10);
    expect(new Set(ten.map((entry) => entry.dash)).size).toBeGreaterThanOrEqual(4);
    // The legend shows each series' colour, marker and dash, as the chart draws them.
    const legend = await page.locator('.legend-item svg').evaluateAll((nodes) =>
      nodes.map((node) => ({
        colour: node.querySelector('line')!.getAttribute('stroke'),
        dash: node.querySelector('line')!.getAttribute('stroke-dasharray') ?? '',
        marker: node.querySelector('[data-marker]')!.getAttribute('data-marker'),
      })),
    );
    expect(legend.slice(0, 10)).toEqual(ten.map(({ colour, dash, marker }) => ({ colour, dash, marker })));
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard-ranked.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
