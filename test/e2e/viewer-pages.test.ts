import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { demoWithPublished, ROOT, runCli, type startCli, startViewer, temporaryHome } from './cli.js';

/**
 * Every viewer page in Chromium: sortable, filterable, exportable tables; how a sample was
 * scored; MedEureka's retrieved texts; two outputs side by side; readable contrast in light and
 * dark mode; nothing wider than a 390 px screen; the static site from file://. Screenshots go to
 * test-artifacts/viewer/pages/ (docs/viewer/ shows a selection).
 */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(ROOT, 'test-artifacts', 'viewer', 'pages');
const home = temporaryHome();
let browser: Browser;
let viewer: ReturnType<typeof startCli>;
let url = '';
const ids = { baseline: '', changed: 'changed0000000c', eureka: '' };

/** A copy of the baseline run whose Chinese NIAH answers name another person (so outputs differ). */
function addChangedRun(): void {
  const store = new Store(join(home, 'medbench.sqlite'));
  try {
    const [baseline] = store.listRuns({ suite: 'medodyssey' }).filter((run) => run.source === 'medbench');
    ids.baseline = baseline!.id;
    ids.eureka = store.listRuns({ suite: 'medeureka' })[0]!.id;
    store.transaction(() => {
      store.ensureRun({
        ...baseline!,
        id: ids.changed,
        label: 'changed-model',
        createdAt: new Date().toISOString(),
      });
      for (const result of store.results(baseline!.id)) {
        const change = result.task === 'niah' && result.params.language === 'zh';
        store.putResult({
          ...result,
          runId: ids.changed,
          prompt: result.promptHash ? store.getPrompt(result.promptHash)! : null,
          rawOutput: change ? `{"答案": "患者是王小明"}` : result.rawOutput,
          scores: change ? { esm: 0, ssm: 0 } : result.scores,
        });
      }
    });
  } finally {
    store.close();
  }
}

/** The lowest WCAG contrast of the text of the elements matching a selector over their backgrounds. */
const LOWEST_CONTRAST = `((selector) => {
  const channels = (colour) => colour.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = (value) => { value /= 255; return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const background = (node) => {
    for (; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      const parts = channels(colour);
      if (parts.length === 3 || parts[3] === 1) return parts.slice(0, 3);
    }
    return [255, 255, 255];
  };
  let lowest = 21;
  for (const node of document.querySelectorAll(selector)) {
    if (!node.textContent.trim() || node.getClientRects().length === 0) continue;
    const [a, b] = [luminance(channels(getComputedStyle(node).color)), luminance(background(node))];
    lowest = Math.min(lowest, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05));
  }
  return lowest;
})`;

async function open(route: string, options: { dark?: boolean; width?: number } = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1280, height: 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    acceptDownloads: true,
  });
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${url}#/${route}`);
  await page.locator('#app h1').first().waitFor();
  return page;
}

describe.skipIf(!existsSync(CHROMIUM))('viewer pages in Chromium', () => {
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await demoWithPublished(home);
    addChangedRun();
    ({ viewer, url } = await startViewer(home));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    viewer?.child.kill('SIGINT');
    await viewer?.done;
    rmSync(home, { recursive: true, force: true });
  });

  it('sorts the leaderboard by any column as numbers, filters it and exports what it shows', async () => {
    const page = await open('leaderboard?suite=medodyssey');
    const header = page.locator('#leaderboard thead th', { hasText: 'Zh.Term' });
    await header.locator('button').click();
    await header.locator('button').click();
    await expect(header.getAttribute('aria-sort')).resolves.toBe('descending');
    const column = await page.locator('#leaderboard thead th').allTextContents();
    const index = column.findIndex((text) => text.startsWith('Zh.Term'));
    const values = (
      await page.locator(`#leaderboard tbody tr > :nth-child(${index + 1})`).allTextContents()
    ).map((text) => (text === '—' ? Number.NEGATIVE_INFINITY : Number(text)));
    const shown = values.filter((value) => value !== Number.NEGATIVE_INFINITY);
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    await page.locator('.table-tools input').first().fill('BASELINE');
    await expect(page.locator('#leaderboard tbody tr').count()).resolves.toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV' }).first().click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8').split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[0]).toMatch(/^Rank,Rank interval,Model,Dataset,Samples,En\.NIAH,.*,Average,vs next$/);
    expect(csv[1]).toMatch(/^\d+,[\d.]+,baseline:extractive,/);
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'JSON' }).first().click(),
    ]);
    const rows = JSON.parse(readFileSync((await json.path())!, 'utf8')) as Array<Record<string, unknown>>;
    expect(rows.map((row) => row.Model)).toEqual(['baseline:extractive']);
    expect(typeof rows[0]!['Zh.Term']).toBe('number');
    // The radar of every run: a series hides from its legend button; each point has a tooltip.
    const series = page.locator('.radar g[data-series]').first();
    expect(await series.locator('circle title').count()).toBeGreaterThan(0);
    await page.locator('.legend-item').first().click();
    await expect(series.isHidden()).resolves.toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('explains a sample: parsed answer, normalised forms and the answer that matched', async () => {
    const page = await open(`samples?run=${ids.baseline}&group=niah-zh&status=ok`);
    await page.locator('#samples tbody a').first().click();
    await page.locator('#explanation').waitFor();
    const rows = await page.locator('#explanation tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^ESM/);
    await page.screenshot({ path: join(ARTIFACTS, 'sample.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('shows a MedEureka query with its retrieved texts, their rank, score and whether each is a target', async () => {
    const page = await open(`samples?run=${ids.eureka}&group=AskAPatient_en`);
    await page.locator('#samples tbody a').first().click();
    await page.locator('#retrieved').waitFor();
    expect(await page.locator('#retrieved tbody tr').count()).toBeGreaterThan(1);
    await expect(page.locator('#retrieved tbody tr.relevant').first().textContent()).resolves.toContain(
      'yes',
    );
    await expect(page.locator('#prompt-details summary').textContent()).resolves.toMatch(/^Query/);
    await page.screenshot({ path: join(ARTIFACTS, 'medeureka-sample.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('compares two runs: report figures, paired tests and the outputs side by side with the difference marked', async () => {
    const page = await open(`compare?a=${ids.baseline}&b=${ids.changed}&group=niah-zh`);
    await page.locator('#comparison').waitFor();
    await expect(page.locator('#compare-figures tbody tr').count()).resolves.toBeGreaterThan(0);
    const marked = await page.locator('#pairs .pair').first().locator('mark.diff').allTextContents();
    // Character by character: what the other output lacks, not the shared JSON key.
    expect(marked.join('')).toContain('王');
    expect(marked.join('')).not.toContain('答案');
    await page.screenshot({ path: join(ARTIFACTS, 'compare.png'), fullPage: false });
    await page.close();
  }, 60_000);

  it('reads well in light and dark mode (text contrast at least 4.5:1) and fits a 390 px screen', async () => {
    const routes = {
      leaderboard: 'leaderboard?suite=medodyssey',
      run: `run?id=${ids.baseline}`,
      samples: `samples?run=${ids.baseline}&group=niah-zh`,
      compare: `compare?a=${ids.baseline}&b=${ids.changed}&group=niah-zh`,
    };
    for (const dark of [false, true])
      for (const [name, route] of Object.entries(routes)) {
        const page = await open(route, { dark, width: 390 });
        await page.waitForTimeout(50);
        const lowest = (await page.evaluate(`${LOWEST_CONTRAST}('#app *:not(:has(*)), header a')`)) as number;
        expect(lowest, `${name} ${dark ? 'dark' : 'light'}`).toBeGreaterThanOrEqual(4.5);
        const overflow = (await page.evaluate(
          'document.documentElement.scrollWidth - window.innerWidth',
        )) as number;
        expect(overflow, `${name} at 390 px`).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: join(ARTIFACTS, `${name}-390${dark ? '-dark' : ''}.png`),
          fullPage: false,
        });
        await page.close();
      }
    const wide = await open(`run?id=${ids.baseline}`, { dark: true });
    await wide.screenshot({ path: join(ARTIFACTS, 'run-dark.png'), fullPage: false });
    await wide.close();
  }, 120_000);

  it('searches prompts too when asked, on the server and on the static site alike', async () => {
    // A piece of one prompt that no id, parameter or output holds.
    const store = new Store(join(home, 'medbench.sqlite'), { readonly: true });
    const outputs = [...store.resultColumn(ids.baseline, 'raw_output').values()].join('\n');
    const hashes = [...store.resultColumn(ids.baseline, 'prompt_hash')].filter(([id]) =>
      id.startsWith('niah-zh'),
    );
    const prompts = [...new Set(hashes.map(([, hash]) => hash!))].map((hash) => store.getPrompt(hash)!);
    store.close();
    const text = prompts
      .flatMap((prompt) => Array.from({ length: 40 }, (_, index) => prompt.slice(index * 20, index * 20 + 8)))
      .find((piece) => piece.trim().length === 8 && !outputs.includes(piece))!;
    const count = async (page: Page) => (await page.locator('#sample-count').textContent())!.split(' of ')[0];
    const site = join(home, 'site-search');
    expect((await runCli(['--home', home, 'report', '--html', site])).code).toBe(0);
    for (const base of [url, pathToFileURL(join(site, 'index.html')).href]) {
      const page = await browser.newPage();
      const route = `samples?run=${ids.baseline}&group=niah-zh&q=${encodeURIComponent(text)}`;
      await page.goto(`${base}#/${route}`);
      await page.locator('#sample-count').waitFor();
      expect(await count(page)).toBe('0');
      await page.locator('#search-prompts').check();
      await page.waitForURL(/prompts=1/);
      await expect.poll(async () => Number(await count(page)), { timeout: 10_000 }).toBeGreaterThan(0);
      await page.close();
    }
  }, 60_000);

  it('says so for a metric the leaderboard does not have, instead of showing another', async () => {
    const page = await open('leaderboard?suite=medeureka&variant=mrr@7');
    await expect(page.locator('#unknown-variant').textContent()).resolves.toMatch(
      /^No metric "mrr@7" in this leaderboard; it has MRR@10, /,
    );
    expect(await page.locator('#leaderboard').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('answers an unknown page or group with "Nothing to show"', async () => {
    for (const route of ['nowhere', `run?id=none`, `samples?run=${ids.baseline}&group=nothing`]) {
      const page = await open(route);
      await expect(page.locator('#app h1').textContent()).resolves.toBe('Nothing to show');
      await page.close();
    }
  }, 60_000);

  it('the static site opens from disk: one file per run, the same lists, samples and comparisons', async () => {
    const folder = join(home, 'site');
    expect((await runCli(['--home', home, 'report', '--html', folder])).code).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(
      `${pathToFileURL(join(folder, 'index.html')).href}#/compare?a=${ids.baseline}&b=${ids.changed}&group=niah-zh`,
    );
    await page.locator('#comparison').waitFor();
    const marked = await page.locator('#pairs .pair').first().locator('mark.diff').allTextContents();
    // Character by character: what the other output lacks, not the shared JSON key.
    expect(marked.join('')).toContain('王');
    expect(marked.join('')).not.toContain('答案');
    expect(requests.every((address) => address.startsWith('file://'))).toBe(true);
    expect(requests.filter((address) => address.includes('/data/run-'))).toHaveLength(2);
    await page.goto(
      `${pathToFileURL(join(folder, 'index.html')).href}#/samples?run=${ids.eureka}&group=AskAPatient_en`,
    );
    await page.locator('#samples tbody a').first().click();
    await page.locator('#retrieved').waitFor();
    await page.locator('#prompt-details summary').click();
    // The query's file is loaded when the details unfold.
    await page.waitForFunction(
      "(document.querySelector('#prompt')?.textContent ?? '') !== '' && document.querySelector('#prompt').textContent !== 'Loading…'",
    );
    expect(requests.some((address) => address.includes('/data/prompt-'))).toBe(true);
    await page.close();
  }, 60_000);
});
