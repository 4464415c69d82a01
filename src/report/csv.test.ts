import { describe, expect, it } from 'vitest';
import { renderCsv } from './csv.js';

describe('renderCsv (RFC 4180)', () => {
  it('writes the header row and each row, every line ending in CRLF', () => {
    expect(
      renderCsv(
        ['Model', 'Acc'],
        [
          ['gpt-4o', '45.0%'],
          ['baseline', '—'],
        ],
      ),
    ).toBe('Model,Acc\r\ngpt-4o,45.0%\r\nbaseline,—\r\n');
  });

  it('quotes a field holding a comma, a double quote or a line break, doubling its quotes', () => {
    expect(renderCsv(['a'], [['Llama, 8B'], ['say "hi"'], ['two\nlines'], ['cr\rhere'], [' spaced ']])).toBe(
      'a\r\n"Llama, 8B"\r\n"say ""hi"""\r\n"two\nlines"\r\n"cr\rhere"\r\n spaced \r\n',
    );
  });

  it('keeps empty fields and rows of the header’s width', () => {
    expect(renderCsv(['Model', 'Depth', 'ALL'], [['', '0%', '1/2']])).toBe('Model,Depth,ALL\r\n,0%,1/2\r\n');
  });
});
