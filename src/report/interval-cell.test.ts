import { describe, expect, it } from 'vitest';
import { renderCsv } from './csv.js';
import { fitTextToWidth } from './fit-text.js';
import { cellWithInterval, htmlCell, plainCell, tallyCell } from './interval-cell.js';
import { renderTextTable } from './text-table.js';

describe('a score cell with its 95% interval', () => {
  const rows = [
    [
      'gpt',
      cellWithInterval('87.10', { lower: 84.04, upper: 90.21 }),
      tallyCell('12/20', { interval: { lower: 0.4, upper: 0.8 } }),
    ],
    ['plain', '70.00', '—'],
  ];

  it('prints the interval on a second line under its row, aligned with its cell; a row without one stays one line', () => {
    expect(renderTextTable(['Model', 'Term', 'NIAH'], rows).split('\n')).toEqual([
      'Model         Term          NIAH',
      '-----  -----------  ------------',
      'gpt          87.10         12/20',
      '       [84.0–90.2]  [40.0–80.0%]',
      'plain        70.00             —',
    ]);
  });

  it('HTML: a second line of the cell; CSV: the value alone; no interval: the cell as it was', () => {
    expect(htmlCell(rows[0]![1]!)).toBe('87.10<br><span class="ci">[84.0–90.2]</span>');
    expect(htmlCell('a<b')).toBe('a&lt;b');
    expect(plainCell(rows[0]![2]!)).toBe('12/20');
    expect(renderCsv(['Model', 'Term', 'NIAH'], rows)).toBe(
      'Model,Term,NIAH\r\ngpt,87.10,12/20\r\nplain,70.00,—\r\n',
    );
    expect(cellWithInterval('1.00', undefined)).toBe('1.00');
    expect(cellWithInterval('—', { lower: Number.NaN, upper: Number.NaN })).toBe('—');
  });

  it('a table split to a width keeps its interval lines under their rows and repeats only the label column', () => {
    const wide = renderTextTable(
      ['Model', 'A', 'B', 'C'],
      [
        [
          'gpt',
          ...['10.00', '20.00', '30.00'].map((cell) => cellWithInterval(cell, { lower: 5, upper: 15 })),
        ],
        // Its interval only in the second part: no blank line in the first.
        ['one', '—', '—', cellWithInterval('40.00', { lower: 30, upper: 50 })],
      ],
    );
    expect(fitTextToWidth(wide, 30).split('\n')).toEqual([
      'Model           A           B',
      '-----  ----------  ----------',
      'gpt         10.00       20.00',
      '       [5.0–15.0]  [5.0–15.0]',
      'one             —           —',
      '',
      'Model            C',
      '-----  -----------',
      'gpt          30.00',
      '        [5.0–15.0]',
      'one          40.00',
      '       [30.0–50.0]',
    ]);
  });
});
