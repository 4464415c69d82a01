import { describe, expect, it } from 'vitest';
import { fitTextToWidth, textSections } from './fit-text.js';
import { renderTextTable } from './text-table.js';

const wide = renderTextTable(
  ['Model', 'Alpha', 'Beta', 'Gamma'],
  [
    ['model-a', '1.00', '2.00', '3.00'],
    ['b', '10.00', '20.00', '30.00'],
  ],
);

describe('fitTextToWidth', () => {
  it('splits a table wider than the width by columns, each part behind the label column', () => {
    // Model (7) + 2 × (2 + 5) = 21 columns fit in 22; Gamma goes to a second part.
    expect(fitTextToWidth(`Title\n${wide}\nA note.`, 22)).toBe(
      [
        'Title',
        'Model    Alpha   Beta',
        '-------  -----  -----',
        'model-a   1.00   2.00',
        'b        10.00  20.00',
        '',
        'Model    Gamma',
        '-------  -----',
        'model-a   3.00',
        'b        30.00',
        'A note.',
      ].join('\n'),
    );
  });

  it('keeps a second label column under a grouped first one (Model, Depth)', () => {
    const grouped = renderTextTable(
      ['Model', 'Depth', '1k', '2k'],
      [
        ['m', '0%', '1', '2'],
        ['', '50%', '3', '4'],
      ],
    );
    expect(fitTextToWidth(grouped, 16).split('\n')).toEqual([
      'Model  Depth  1k',
      '-----  -----  --',
      'm         0%   1',
      '         50%   3',
      '',
      'Model  Depth  2k',
      '-----  -----  --',
      'm         0%   2',
      '         50%   4',
    ]);
  });

  it('repeats every column that says what a row is (the usage table: Model, Run, Task), a run id of digits too', () => {
    const usage = renderTextTable(
      ['Model', 'Run', 'Task', 'Samples', 'Sent', 'Input tokens', 'Output tokens', 'Cost'],
      [
        ['gpt-4o', '3f9a0c1e', 'niah', '20', '20', '10,243', '5,000', '0.0756'],
        ['gpt-4o', '12345678', 'counting', '28', '28', '1,203,244', '700', '3.0151'],
      ],
    );
    const parts = textSections(fitTextToWidth(usage, 50));
    expect(parts.length).toBeGreaterThan(1);
    // The label columns as the whole table has them: 'gpt-4o  3f9a0c1e      niah' (26 characters).
    const labels = usage.split('\n').map((line) => line.slice(0, 26));
    expect(labels[0]).toBe('Model        Run      Task');
    for (const part of parts) expect(part.split('\n').map((line) => line.slice(0, 26))).toEqual(labels);
    expect(parts.join('\n')).toContain('0.0756');
  });

  it('leaves prose, and a table that fits, as they are', () => {
    expect(fitTextToWidth('  one two three four', 12)).toBe('  one two three four');
    expect(fitTextToWidth(`T\n${wide}`, 80)).toBe(`T\n${wide}`);
  });
});

describe('textSections', () => {
  it('parts a report at blank lines', () => {
    expect(textSections('A\nx\n\nB\ny\n\n\nC\n')).toEqual(['A\nx', 'B\ny', 'C\n']);
  });
});
