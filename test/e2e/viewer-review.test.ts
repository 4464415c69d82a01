import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUITES } from '../../src/compose/suites.js';
import { Store } from '../../src/store/store.js';
import { writeStaticSite } from '../../src/view/static-site.js';
import { HOSTILE_ANSWER, writeReviewStore } from '../support/review-store.js';
import { temporaryHome } from './cli.js';
import { CHROMIUM, viewerInChromium } from './viewer-browser.js';

/**
 * The review page in Chromium over `medbench view --reviewer alice` (the built CLI): an item
 * graded criterion by criterion lands in the store; a grade edited from "my grades" keeps its
 * history; a model's answer with markup shows as text; the static site says how to grade.
 */
const home = temporaryHome();
const path = join(home, 'medbench.sqlite');
let browser: Browser;
let url = '';
let close = async () => {};

const grades = () => {
  const store = new Store(path, { readonly: true });
  try {
    return store.humanGrades.history();
  } finally {
    store.close();
  }
};

async function open(target: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(target);
  await page.locator('#app h1').first().waitFor();
  return page;
}

/** Answers every criterion on the page: met when its points are positive, not met otherwise — or `flip` turned. */
async function answerAll(page: Page, flip = ''): Promise<void> {
  for (const fieldset of await page.locator('fieldset.criterion').all()) {
    const id = await fieldset.getAttribute('data-criterion');
    const positive = !(await fieldset.locator('legend').textContent())!.includes('(-');
    await fieldset.locator(`input[value="${positive !== (id === flip) ? 'met' : 'not-met'}"]`).check();
  }
}

describe.skipIf(!existsSync(CHROMIUM))('the review page in Chromium', () => {
  beforeAll(async () => {
    writeReviewStore(path, 1);
    ({ browser, url, close } = await viewerInChromium(home, ['--reviewer', ' alice ']));
  }, 60_000);

  afterAll(() => close());

  it('grades blinded items through the page, shows markup in answers as text, and keeps an edit beside the first grade', async () => {
    const page = await open(`${url}#/review`);
    await page.locator('#suites a', { hasText: 'Review' }).waitFor();
    await page.locator('#review-tasks a', { hasText: 'MeQSum' }).click();
    await page.locator('#review-token').waitFor();
    const first = (await page.locator('#review-token').textContent())!.replace('Item ', '');
    expect(await page.locator('#review-counts').textContent()).toMatch(/^Items 2 · graded 0 · mine 0/);
    // Not every criterion answered: nothing is sent.
    await page.locator('fieldset.criterion input[value="met"]').first().check();
    await page.getByRole('button', { name: 'Save grade' }).click();
    await expect(page.locator('#review-status').textContent()).resolves.toMatch(
      /^Answer every criterion first/,
    );
    expect(grades()).toEqual([]);
    const answers = [await page.locator('#review-answer').textContent()];
    await answerAll(page);
    await page.locator('#review-note').fill('clear summary');
    await page.getByRole('button', { name: 'Save grade' }).click();
    await page.locator('#review-saved', { hasText: `Saved item ${first}: score 100.0%` }).waitFor();
    expect(grades().map((grade) => [grade.reviewer, grade.score, grade.note, grade.source])).toEqual([
      ['alice', 1, 'clear summary', 'viewer'],
    ]);
    // The next item, then nothing: one of the two answers was markup, shown as text and never run.
    answers.push(await page.locator('#review-answer').textContent());
    expect(answers).toContain(HOSTILE_ANSWER);
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    const text = (await page.locator('#app').textContent())!;
    for (const hidden of ['run-model', 'model-a', 'model-b', 'rougeL']) expect(text).not.toContain(hidden);
    // Edit the first grade from "my grades": its page lists both grades after the edit.
    await page.locator('#review-mine a', { hasText: first }).click();
    await page.locator('#review-history li').first().waitFor();
    await answerAll(page, 'keeps-focus');
    await page.getByRole('button', { name: 'Save edit' }).click();
    await page.locator('#review-saved', { hasText: 'Saved an edit' }).waitFor();
    await expect(page.locator('#review-history li').count()).resolves.toBe(2);
    const stored = grades();
    expect(stored.map((grade) => grade.note)).toEqual(['clear summary', 'clear summary']);
    expect(stored[1]!.verdicts['keeps-focus']).toBe(false);
    expect(stored[1]!.score).toBeLessThan(1);
    expect(new Set(stored.map((grade) => `${grade.runId}/${grade.sampleId}`)).size).toBe(1);
    await page.close();
  }, 60_000);

  it('the static site takes no grades and says how to grade', async () => {
    const folder = join(home, 'site');
    const store = new Store(path, { readonly: true });
    writeStaticSite(store, folder, SUITES);
    store.close();
    const page = await open(`${pathToFileURL(join(folder, 'index.html')).href}#/review`);
    await expect(page.locator('#review-start').textContent()).resolves.toContain(
      'medbench view --reviewer NAME',
    );
    await expect(page.locator('form').count()).resolves.toBe(0);
    await page.close();
  }, 30_000);
});
