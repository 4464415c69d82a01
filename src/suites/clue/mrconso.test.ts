import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMrconso } from './mrconso.js';

const folder = mkdtempSync(join(tmpdir(), 'medbench-mrconso-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// Lines in the MRCONSO.RRF layout, written for this test.
const line = (cui: string, lat: string, name: string, suppress = 'N') =>
  `${cui}|${lat}|P|L0000001|PF|S0000001|Y|A0000001||M0000001|D000001|MSH|MH|D000001|${name}|0|${suppress}|256|`;

describe('loadMrconso', () => {
  it('keeps one language and drops suppressed names', async () => {
    const path = join(folder, 'MRCONSO.RRF');
    writeFileSync(
      path,
      [
        line('C0020538', 'ENG', 'Hypertension'),
        line('C0020538', 'GER', 'Hypertonie'),
        line('C0020538', 'ENG', 'HTN', 'O'),
      ].join('\n'),
    );
    expect(await loadMrconso(path)).toEqual([{ id: 'C0020538', name: 'Hypertension' }]);
    expect(await loadMrconso(path, { language: 'GER' })).toEqual([{ id: 'C0020538', name: 'Hypertonie' }]);
  });

  it('names the line with the wrong number of fields', async () => {
    const path = join(folder, 'BROKEN.RRF');
    writeFileSync(path, `${line('C1', 'ENG', 'Fine')}\nC2|ENG|only a few|\n`);
    await expect(loadMrconso(path)).rejects.toMatchObject({
      code: 'DATA_INVALID',
      message: expect.stringContaining('BROKEN.RRF:2'),
    });
  });
});
