import { describe, expect, it } from 'vitest';
import { progressLine } from './progress-bar.js';

/** A stream that keeps what is written, as a terminal (`isTTY`) or a pipe would receive it. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return {
    written,
    stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream,
  };
}

describe('progressLine', () => {
  it('on a terminal: one line redrawn in place, ended by finish', () => {
    const terminal = stream(true);
    const line = progressLine(terminal.stream);
    line.update('step 1');
    line.update('step 2'); // within 100 ms of the last: skipped
    line.update('step 3', true);
    line.finish();
    expect(terminal.written).toEqual(['\r\x1b[2Kstep 1', '\r\x1b[2Kstep 3', '\n']);
  });

  it('in a pipe: the first line at once, then none for 10 s but a forced one; finish adds nothing', () => {
    const pipe = stream(false);
    const line = progressLine(pipe.stream);
    line.update('step 1');
    line.update('step 2');
    line.update('done', true);
    line.finish();
    expect(pipe.written).toEqual(['step 1\n', 'done\n']);
  });
});
