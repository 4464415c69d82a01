import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWithPublished, runCli, temporaryHome } from './cli.js';

const home = temporaryHome();
beforeAll(() => demoWithPublished(home));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The widest table of `text`, in characters: its rule's (prose is left for the terminal to wrap). */
const widest = (text: string) =>
  Math.max(
    ...text
      .split('\n')
      .filter((line) => /^-+( {2}-+)*$/.test(line))
      .map((line) => line.length),
  );

describe('report: one table, and a layout that fits the width (built CLI)', () => {
  it('not a terminal: 100 columns; a wider table is split by columns, each part behind the model column', async () => {
    const full = await runCli(['--home', home, 'report', '--width', '0']);
    expect(widest(full.stdout)).toBeGreaterThan(100);
    const fitted = await runCli(['--home', home, 'report']);
    expect(fitted.code).toBe(0);
    expect(widest(fitted.stdout)).toBeLessThanOrEqual(100);
    // Table 2 (KG, Term, Table, Case): every part starts with the model column and lists every model.
    const table2 = await runCli(['--home', home, 'report', '--table', 'table 2', '--width', '60']);
    expect(table2.code).toBe(0);
    expect(table2.stdout.split('\n')[0]).toBe('Medical tasks — ESM (Table 2)');
    expect(widest(table2.stdout)).toBeLessThanOrEqual(60);
    const parts = table2.stdout.split('\n\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts.map((text) => text.replace(/^Medical tasks.*\n/, '')))
      expect(part).toMatch(/^Model {2,}\S/);
    expect(table2.stdout).not.toContain('NIAH');
  });

  it('--table with no match is a usage error listing the titles', async () => {
    const result = await runCli(['--home', home, 'report', '--table', 'Table 9']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--table Table 9: no table of this MedOdyssey report has that in its title.',
    );
    expect(result.stderr).toContain('    Medical tasks — ESM (Table 2)\n');
    expect(result.stdout).toBe('');
  });
});
