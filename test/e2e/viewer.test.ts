import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, type StoredResult } from '../../src/store/store.js';
import { demoWithPublished, ROOT, runCli, type startCli, startViewer, temporaryHome } from './cli.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'viewer');
const XSS = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">';
const home = temporaryHome();
/** Runs in the page: draws 林 and U+F8FF in the page's font and says whether the pixels differ. */
const CHINESE_RENDERS = `(() => {
  const draw = (text) => {
    const canvas = document.createElement('canvas');
    canvas.width = 40; canvas.height = 40;
    const context = canvas.getContext('2d');
    context.font = '32px ' + getComputedStyle(document.body).fontFamily;
    context.fillText(text, 2, 32);
    return Array.from(context.getImageData(0, 0, 40, 40).data).join();
  };
  const glyph = draw('林');
  return glyph !== draw('\\uF8FF') && glyph !== draw('');
})()`;
let browser: Browser;
let viewer: ReturnType<typeof startCli>;
let url = '';
let baselineRunId = '';

/** A copy of the baseline run with some NIAH answers flipped, and a run whose every string is a script payload. */
function addRuns(): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    const [baseline] = store.listRuns({ suite: 'medodyssey' });
    baselineRunId = baseline!.id;
    const results = store.results(baseline!.id);
    const copy = {
      ...baseline!,
      id: 'flipped00000000a',
      label: 'flipped-model',
      createdAt: new Date().toISOString(),
    };
    const hostile = {
      ...baseline!,
      id: 'hostile0000000b',
      label: `hostile ${XSS}`,
      createdAt: new Date().toISOString(),
    };
    const record = (result: StoredResult, runId: string) => ({
      ...result,
      runId,
      prompt: result.promptHash ? store.getPrompt(result.promptHash)! : null,
    });
    store.transaction(() => {
      store.ensureRun(copy);
      store.ensureRun(hostile);
      results.forEach((result, index) => {
        const flip = result.task === 'niah' && result.params.language === 'zh' && index % 3 === 0;
        store.putResult({ ...record(result, copy.id), scores: flip ? { esm: 1, ssm: 1 } : result.scores });
      });
      const [first] = results.filter((result) => result.task === 'niah');
      store.putResult({
        ...record(first!, hostile.id),
        sampleId: `xss-${XSS}`,
        rawOutput: XSS,
        parsed: XSS,
        gold: { answers: [XSS] },
        prompt: `Find the needle. ${XSS} 林晚舟 ${'haystack text '.repeat(50_000)}`,
      });
    });
  } finally {
    store.close();
  }
}

async function newPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
  return page;
}

describe.skipIf(!existsSync(CHROMIUM))('medbench view in Chromium (built CLI)', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await demoWithPublished(home);
    addRuns();
    ({ viewer, url } = await startViewer(home));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    viewer?.child.kill('SIGINT');
    await viewer?.done;
    rmSync(home, { recursive: true, force: true });
  });

  it('clicks from the leaderboard to a model, a heatmap cell, a sample and a comparison, with the store’s numbers', async () => {
    const report = JSON.parse(
      (await runCli(['--home', home, 'report', '--json', '--run', baselineRunId])).stdout,
    );
    const overview = report.runs[0].overview as Record<string, number | null>;
    const page = await newPage();
    await page.goto(url);
    const row = page.locator('#leaderboard tbody tr', { hasText: 'baseline:extractive' });
    for (const column of ['Zh.Term', 'En.Counting', 'Zh.KG']) {
      await expect(row.locator(`td[data-column="${column}"]`).textContent()).resolves.toContain(
        overview[column]!.toFixed(2),
      );
    }
    await expect(
      page.locator('#leaderboard tbody tr', { hasText: 'hostile' }).locator('th').textContent(),
    ).resolves.toContain('<script>');
    // The published runs imported from the release sit alongside, marked as imported.
    const importedRows = page.locator('#leaderboard tbody tr', { has: page.locator('.imported') });
    expect(await importedRows.count()).toBeGreaterThan(0);
    await expect(importedRows.first().locator('th .imported').textContent()).resolves.toBe('imported');
    await page.screenshot({ path: join(ARTIFACTS, '1-leaderboard.png') });

    await page.getByRole('link', { name: 'baseline:extractive' }).click();
    const niahZh = page.locator('section[data-group="niah-zh"]');
    // Each cell's interval is in its tooltip; one spanning 30 points or more is marked (a dashed border) and says so.
    await niahZh.locator('td.cell').first().waitFor();
    const cells = await niahZh
      .locator('td.cell')
      .evaluateAll((tds) =>
        tds.map((td) => ({ wide: td.classList.contains('wide'), title: td.querySelector('a')?.title ?? '' })),
      );
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      if (!cell.title) continue; // nothing counted
      const [, lower, upper] = /\[([\d.]+), ([\d.]+)\]/.exec(cell.title)!;
      expect(cell.wide).toBe(Number(upper) - Number(lower) >= 30);
      expect(cell.title.includes('points wide')).toBe(cell.wide);
    }
    await niahZh.locator('a[data-cell="50|1000"]').click();
    await expect(page.locator('#sample-count').textContent()).resolves.toBe('4 of 60 samples');
    expect(page.url()).toContain('level=1000');
    expect(page.url()).toContain('depth=50');
    await page.screenshot({ path: join(ARTIFACTS, '2-samples.png') });

    const listed = await page.locator('#samples tbody a').allTextContents();
    await page.locator('#samples tbody a').first().click();
    await expect(page.locator('#sample-status').textContent()).resolves.toBe('ok');
    // prev/next walk the filtered list the sample was opened from (level 1000, depth 50).
    await expect(page.locator('#sample-steps').textContent()).resolves.toContain(
      'within level 1000, depth 50',
    );
    if (listed.length > 1)
      await expect(
        page.locator('#sample-steps a', { hasText: 'next' }).getAttribute('href'),
      ).resolves.toContain(encodeURIComponent(listed[1]!));
    const raw = await page.locator('#raw-output').textContent();
    expect(raw).toMatch(/[\u4e00-\u9fff]/);
    // A Chinese glyph must draw differently from the missing-glyph box of a private-use code point.
    expect(await page.evaluate(CHINESE_RENDERS)).toBe(true);
    await page.locator('#prompt-details summary').click();
    // The needle's answer is highlighted in the unfolded prompt.
    await expect(page.locator('#prompt mark').first().textContent()).resolves.toBe('林晚舟');
    await page.screenshot({ path: join(ARTIFACTS, '3-sample-zh.png'), fullPage: false });

    await page.goto(`${url}#/run?id=${baselineRunId}`);
    const menu = page.locator('section[data-group="niah-zh"] select');
    // Only runs of the same suite and dataset are offered, each told apart by id, date and source.
    const offered = await menu.locator('option').allTextContents();
    expect(offered.some((text) => text.includes('(published)'))).toBe(false);
    const flipped = offered.find((text) => text.startsWith('flipped-model — '))!;
    expect(flipped).toMatch(/^flipped-model — [0-9a-z-]{1,8} · \d{4}-\d{2}-\d{2} · run by medbench$/);
    await menu.selectOption({ label: flipped });
    await page.locator('#comparison').waitFor();
    // The paper's names: the group title and the metric.
    await expect(page.locator('h1').textContent()).resolves.toContain('— Zh.NIAH');
    const esm = page.locator('#comparison tbody tr', { hasText: /^ESM/ });
    // NIAH's needles are its units (each sits at every length and depth): the paired bootstrap's test.
    await expect(esm.textContent()).resolves.toContain('paired bootstrap: A only 0, B only 20');
    await expect(page.locator('#disagreements tbody tr').count()).resolves.toBe(20);
    await page.screenshot({ path: join(ARTIFACTS, '4-compare.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('shows script payloads from outputs, prompts and labels as text, and runs none of them', async () => {
    const page = await newPage();
    await page.goto(`${url}#/samples?run=hostile0000000b&group=niah-en`);
    await page.locator('#samples tbody a').first().click();
    await expect(page.locator('#raw-output').textContent()).resolves.toBe(XSS);
    await expect(page.locator('#parsed').textContent()).resolves.toBe(XSS);
    const started = Date.now();
    await page.locator('#prompt-details summary').click();
    await page.locator('#prompt mark').first().waitFor();
    expect(Date.now() - started).toBeLessThan(3000);
    await page.locator('#prompt-search').fill('林晚舟');
    await page.locator('#prompt-search').press('Enter');
    await expect(page.locator('#prompt mark.current').textContent()).resolves.toBe('林晚舟');
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, '5-hostile.png') });
    const status = await page.evaluate(async () => (await fetch('/../../../etc/passwd')).status);
    expect(status).toBe(404);
    await page.close();
  }, 60_000);

  it('writes the same views as a static site that opens from disk', async () => {
    const folder = join(home, 'site');
    const result = await runCli(['--home', home, 'report', '--html', folder]);
    expect(result.code).toBe(0);
    const page = await newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(join(folder, 'index.html')).href);
    await page.getByRole('link', { name: 'baseline:extractive' }).click();
    await page.locator('section[data-group="niah-zh"] a[data-cell="50|1000"]').click();
    await expect(page.locator('#sample-count').textContent()).resolves.toBe('4 of 60 samples');
    await page.locator('#samples tbody a').first().click();
    await expect(page.locator('#sample-status').textContent()).resolves.toBe('ok');
    // The static page applies the server's filter rule to the run's file: prev/next keep the filters.
    await expect(page.locator('#sample-steps').textContent()).resolves.toContain(
      'within level 1000, depth 50',
    );
    expect(requests.every((address) => address.startsWith('file://'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, '6-static.png') });
    await page.close();
  }, 60_000);
});
