import { didYouMean } from '../../compose/store-contents.js';
import { MedbenchError } from '../../core/errors.js';
import type { Suite } from '../../core/suite.js';
import { fitTextToWidth, textSections } from '../../report/fit-text.js';

/** How `report` lays its text out: one table (`--table`), and the width to fit (`--width`). */
export interface ReportTextOptions {
  table?: string;
  /** Columns to fit; 0: no limit. Default: the terminal's width, 100 when stdout is not a terminal. */
  width?: number;
}

/** The text report's width when --width is not given: the terminal's, else 100. */
function defaultWidth(): number {
  return process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 100;
}

/** The sections whose title (first line) holds `name`, case aside; a usage error listing the titles when none does. */
function pickTables(text: string, name: string, suite: Suite): string {
  const sections = textSections(text);
  const titles = sections.map((section) => section.split('\n', 1)[0]!);
  const wanted = name.toLowerCase();
  const chosen = sections.filter((_, index) => titles[index]!.toLowerCase().includes(wanted));
  if (chosen.length > 0) return `${chosen.join('\n\n')}\n`;
  const names = titles.map((title) => title.split(/ — |: /, 1)[0]!);
  throw new MedbenchError({
    code: 'USAGE',
    message: `--table ${name}: no table of this ${suite.title} report has that in its title.${didYouMean(name, [...new Set(names)])}`,
    hint: `Titles (--table takes any part of one):\n${titles.map((title) => `    ${title}`).join('\n')}`,
  });
}

/** The text report as printed: the tables --table names, laid out for the terminal's width. */
export function reportText(text: string, suite: Suite, options: ReportTextOptions): string {
  const chosen = options.table ? pickTables(text, options.table, suite) : text;
  const width = options.width ?? defaultWidth();
  return width > 0 ? fitTextToWidth(chosen, width) : chosen;
}
