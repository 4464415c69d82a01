// The full en + zh NIAH and Counting grid the benches build (7 levels × 5 depths × 20 needles, and
// 4 types × 7 levels, per language), and the release folder they build it from.
import { join } from 'node:path';

/** The official release: the first argument, else $MEDBENCH_SHARED_DATA/medodyssey (exits if neither). */
export function releaseFolder() {
  const data =
    process.argv[2] ??
    (process.env.MEDBENCH_SHARED_DATA && join(process.env.MEDBENCH_SHARED_DATA, 'medodyssey'));
  if (!data) {
    console.error('Give the official release folder, or set MEDBENCH_SHARED_DATA.');
    process.exit(2);
  }
  return data;
}

/** The grid's levels; LEVELS=4000,8000 for a quicker look. */
export const levels = (process.env.LEVELS ?? '4000,8000,16000,32000,64000,128000,200000')
  .split(',')
  .map(Number);

/** `prepareMedOdysseyBuild`'s request for the grid, but its MIC mode and tokenizers. */
export function gridRequest(data) {
  return {
    data,
    tasks: ['niah', 'counting'],
    languages: ['en', 'zh'],
    levels,
    depths: [0, 25, 50, 75, 100],
    countingTypes: ['repeat', 'increase', 'shuffle', 'correction'],
    haystack: 'medical',
    seed: 'bench',
    countingSentences: { min: 6, max: 20 },
  };
}
