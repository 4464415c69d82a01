import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClueLeaderboardRuns } from '../support/clue-leaderboard-runs.js';
import { writeCompareRuns } from '../support/compare-runs.js';
import { runCli, type startCli, startViewer, temporaryHome } from './cli.js';

/**
 * The viewer's compare page in Chromium computes as `medbench compare` does (`comparePairs`):
 * on the hand-checked runs of test/support/compare-runs.ts, McNemar's p of En.Term is 0.125 on
 * both, the interval of B − A is shown, and NIAH is resampled by needle. The leaderboard shows
 * each run's rank interval and the test against the next, as the server's `ranks` answers them,
 * served and in the static site.
 */
const CHROMIUM = '/usr/bin/chromium';
const home = temporaryHome();
let browser: Browser;
let viewer: ReturnType<typeof startCli>;
let url = '';

async function open(group: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${url}#/compare?a=aaaa000000000001&b=bbbb000000000002&group=${group}`);
  await page.locator('#comparison').waitFor();
  return page;
}

/** The comparison table's row of a metric: its cells' texts. */
async function metricRow(page: Page, metric: string): Promise<string[]> {
  const row = page.locator('#comparison tbody tr', { hasText: metric }).first();
  return row.locator('th, td').allTextContents();
}

describe.skipIf(!existsSync(CHROMIUM))(
  "the viewer's compare page and leaderboard use compare's code (Chromium)",
  () => {
    beforeAll(async () => {
      writeCompareRuns(home);
      writeClueLeaderboardRuns(home);
      ({ viewer, url } = await startViewer(home));
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu'],
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      viewer?.child.kill('SIGINT');
      await viewer?.done;
      rmSync(home, { recursive: true, force: true });
    });

    it('En.Term: the means, B − A with its interval, McNemar 1/6 and p = 0.125, as compare --json gives them', async () => {
      const cli = JSON.parse(
        (await runCli(['--home', home, 'compare', 'model-a', 'model-b', '--json'])).stdout,
      ) as { tasks: Array<{ task: string; p: number; onlyA: number; onlyB: number }> };
      const term = cli.tasks.find((task) => task.task === 'En.Term')!;
      const page = await open('term-en');
      const [metric, a, b, difference, test, p, detectable] = await metricRow(page, 'ESM');
      expect(metric).toMatch(/^ESM/);
      expect([a, b]).toEqual(['30.0', '80.0']);
      expect(difference).toMatch(/^50\.0 \[\d+\.\d, \d+\.\d\]$/);
      expect(test).toBe(`McNemar (exact): A only ${term.onlyA}, B only ${term.onlyB}`);
      expect(Number(p)).toBeCloseTo(term.p, 3);
      expect(p).toBe('0.125');
      expect(detectable).toMatch(/^\d+\.\d$/);
      await page.close();
    }, 60_000);

    it('En.NIAH: six pairs resampled as two needles, so the p is the paired bootstrap’s', async () => {
      const page = await open('niah-en');
      await expect(page.locator('#compare-method').textContent()).resolves.toContain(
        'over 2 units (samples resampled together: NIAH needles)',
      );
      const [, , , , test] = await metricRow(page, 'ESM');
      expect(test).toBe('paired bootstrap: A only 0, B only 2');
      await page.close();
    }, 60_000);

    it('the leaderboard: each rank interval and the mark against the next, as api/ranks gives them, served and static', async () => {
      const ranks = (await (await fetch(`${url}api/ranks?suite=medodyssey&variant=esm`)).json()) as {
        entries: Array<{ label: string; lower: number; upper: number; next: { different: boolean } | null }>;
      };
      expect(ranks.entries.length).toBe(5);
      const expected = ranks.entries.map((entry) => [
        entry.lower === entry.upper ? String(entry.lower) : `${entry.lower}–${entry.upper}`,
        entry.next ? (entry.next.different ? '>' : '≈') : '',
      ]);
      const folder = join(home, 'site');
      expect((await runCli(['--home', home, 'report', '--html', folder])).code).toBe(0);
      for (const address of [
        `${url}#/leaderboard?suite=medodyssey`,
        `${pathToFileURL(join(folder, 'index.html')).href}#/leaderboard?suite=medodyssey`,
      ]) {
        const page = await browser.newPage();
        await page.goto(address);
        await page.locator('#leaderboard').waitFor();
        await expect(page.locator('#rank-note').textContent()).resolves.toContain(
          'paired bootstrap of the two averages',
        );
        // The leaderboard's order is the ranking's: the same rows, best first.
        const intervals = await page.locator('#leaderboard tbody td.rank-interval').allTextContents();
        const marks = await page.locator('#leaderboard tbody td.vs-next').allTextContents();
        expect(intervals.map((interval, index) => [interval, marks[index]!.slice(0, 1)])).toEqual(expected);
        await page.close();
      }
    }, 60_000);

    it("CLUE's leaderboard: the rank interval of the mean of Level 1 and Level 2, and the mark against the next", async () => {
      const page = await browser.newPage();
      await page.goto(`${url}#/leaderboard?suite=clue`);
      await page.locator('#leaderboard td.rank-interval').first().waitFor();
      // full: Levels 63.33 and 48.33, average 55.83, always first; half: every score halved,
      // 27.92; the compare runs' CLUE run lacks a level: no average, no rank.
      const rows = await page
        .locator('#leaderboard tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) =>
            ['th', 'td.rank-interval', 'td[data-column="average"]', 'td.vs-next'].map(
              (selector) => tr.querySelector(selector)?.textContent?.trim() ?? '',
            ),
          ),
        );
      expect(rows).toEqual([
        ['full', '1', '55.83', '> next (p < 0.001)'],
        ['half', '2', '27.92', ''],
        ['clue-run', '—', '—', ''],
      ]);
      // Each level score with its 95% interval under it (the report's, resampled per dataset).
      const level1 = page.locator('#leaderboard tbody tr').first().locator('td[data-column="level1"] .ci');
      expect(await level1.textContent()).toMatch(/^\[\d+\.\d–\d+\.\d\]$/);
      await page.close();
    }, 60_000);
  },
);
