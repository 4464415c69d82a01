import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { COUNTING_TYPES, type CountingType, type Language } from './constants.js';
import { type HaystackKind, readJsonFile } from './release.js';
import { SeededRandom } from './seeded-random.js';

/** The release's Counting type names, in the grid's order (type = id mod 4). */
export const RELEASE_COUNTING_TYPES: Readonly<Record<CountingType, string>> = {
  repeat: 'acquisition_1',
  increase: 'acquisition_inc',
  shuffle: 'acquisition_shuffle',
  correction: 'reasoning',
};

/** One sample of the Counting grid. */
export interface CountingCell {
  id: number;
  type: CountingType;
  level: number;
  /** Ids 4g … 4g+3 form group g and share k (and the shuffle/correction counts). */
  group: number;
}

/**
 * The grid: one sample per level and type. With the paper's seven levels, id i has type
 * [repeat, increase, shuffle, correction][i mod 4] and level levels[i mod 7], as published;
 * for a level count that shares a factor with 4 (where that rule would skip pairs), id =
 * 4 × level index + type index.
 */
export function countingGrid(levels: readonly number[]): CountingCell[] {
  const count = levels.length;
  const coprime = count % 2 === 1;
  const cells: CountingCell[] = [];
  for (let id = 0; id < 4 * count; id++) {
    const typeIndex = id % 4;
    const levelIndex = coprime ? id % count : Math.floor(id / 4);
    cells.push({
      id,
      type: COUNTING_TYPES[typeIndex]!,
      level: levels[levelIndex]!,
      group: Math.floor(id / 4),
    });
  }
  return cells;
}

/** The random choices of one Counting sample. Offsets are absent when drawn at build time. */
export interface CountingDraw {
  counts: number[];
  wrongCounts: number[] | undefined;
  /** Insertion offsets into the kept haystack (published draws), or undefined (seeded). */
  offsets: number[] | undefined;
  source: 'published' | 'seeded';
}

const drawSchema = z
  .object({
    id: z.number().int().nonnegative(),
    type: z.enum(['acquisition_1', 'acquisition_inc', 'acquisition_shuffle', 'reasoning']),
    level: z.number().int().positive(),
    k: z.number().int().positive(),
    counts: z.array(z.number().int().positive()),
    wrong_counts: z.array(z.number().int().positive()).nullable(),
    cut_offsets: z.array(z.number().int().positive()),
  })
  .refine((draw) => draw.counts.length === draw.k && draw.cut_offsets.length === draw.k, {
    message: 'counts and cut_offsets must each hold k numbers',
  })
  .refine(
    (draw) =>
      (draw.type === 'reasoning') === (draw.wrong_counts !== null && draw.wrong_counts.length === draw.k),
    {
      message: 'wrong_counts holds k numbers for reasoning and is null otherwise',
    },
  )
  .refine(
    (draw) => draw.cut_offsets.every((offset, index) => index === 0 || offset > draw.cut_offsets[index - 1]!),
    {
      message: 'cut_offsets must be strictly ascending',
    },
  );

const drawsFileSchema = z.object({
  language: z.enum(['en', 'zh']).optional(),
  medical: z.array(drawSchema).optional(),
  general: z.array(drawSchema).optional(),
});

/**
 * The published zh draws as medbench ships them: assets/medodyssey/counting-draws.json of the
 * installed package (src/suites/medodyssey → three levels up, as dist/suites/medodyssey), read out
 * of the 322 published Counting prompts.
 */
export function shippedCountingDrawsFile(): string {
  return join(
    dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    '..',
    'assets',
    'medodyssey',
    'counting-draws.json',
  );
}

/** Published (or user-given) draws: language → haystack → id → draw. */
export type CountingDrawsFile = {
  path: string;
  language: Language;
  byHaystack: Partial<Record<HaystackKind, Map<number, z.infer<typeof drawSchema>>>>;
};

/**
 * Reads a draws file (`counting-draws.json` of the shared release data, or one of that shape):
 * `{ "medical": [...], "general": [...] }`, each entry { id, type, level, k, counts,
 * wrong_counts, cut_offsets }. It applies to zh unless it says `"language": "en"`.
 */
export function loadCountingDraws(path: string): CountingDrawsFile {
  const json = readJsonFile(path, {
    missing:
      'Pass a JSON file of { "medical": [...], "general": [...] } draws (docs/medodyssey-counting.md), or --counting-draws without a file for the published zh draws medbench ships.',
    invalid: 'The draws file is JSON: { "medical": [...], "general": [...] } (docs/medodyssey-counting.md).',
  });
  const parsed = drawsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `--counting-draws: ${path}: ${issue.path.join('.') || '(root)'}: ${issue.message}.`,
      hint: 'Each entry needs id, type (acquisition_1|acquisition_inc|acquisition_shuffle|reasoning), level, k, counts, wrong_counts (reasoning only, else null) and cut_offsets (docs/medodyssey-counting.md).',
    });
  }
  const byHaystack: CountingDrawsFile['byHaystack'] = {};
  for (const [key, kind] of [
    ['medical', 'medical'],
    ['general', 'generic'],
  ] as const) {
    const entries = parsed.data[key];
    if (entries) byHaystack[kind] = new Map(entries.map((entry) => [entry.id, entry]));
  }
  return { path, language: parsed.data.language ?? 'zh', byHaystack };
}

/** The published draw of a grid cell, checked against the cell. */
export function publishedDraw(
  file: CountingDrawsFile,
  haystack: HaystackKind,
  cell: CountingCell,
): CountingDraw {
  const entry = file.byHaystack[haystack]?.get(cell.id);
  const where = `--counting-draws ${file.path}`;
  if (!entry) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${where}: no ${haystack === 'generic' ? 'general' : 'medical'} entry for Counting id ${cell.id} (${cell.type}, level ${cell.level}).`,
      hint: "The draws cover the published grid (the paper's seven levels); build other levels without --counting-draws.",
    });
  }
  if (entry.type !== RELEASE_COUNTING_TYPES[cell.type] || entry.level !== cell.level) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${where}: entry ${cell.id} is ${entry.type} at level ${entry.level}; the grid has ${RELEASE_COUNTING_TYPES[cell.type]} at level ${cell.level} there.`,
      hint: "Use the draws with the paper's seven levels (the default --levels).",
    });
  }
  return {
    counts: entry.counts,
    wrongCounts: entry.wrong_counts ?? undefined,
    offsets: entry.cut_offsets,
    source: 'published',
  };
}

/** k distinct integers of [0, range), ascending (Floyd's sampling). */
export function distinctIntegers(random: SeededRandom, range: number, k: number): number[] {
  const chosen = new Set<number>();
  for (let top = range - k; top < range; top++) {
    const pick = random.integer(0, top);
    chosen.add(chosen.has(pick) ? top : pick);
  }
  return [...chosen].sort((left, right) => left - right);
}

/** A uniformly random composition of `total` into k parts ≥ 1. */
function composition(random: SeededRandom, total: number, k: number): number[] {
  const cuts = distinctIntegers(random, total - 1, k - 1).map((cut) => cut + 1);
  const bounds = [0, ...cuts, total];
  return bounds.slice(1).map((bound, index) => bound - bounds[index]!);
}

/** Splits `total` into parts, each in [1, cap_i], uniformly at random unit by unit (Σcap ≥ total ≥ parts). */
function boundedSplit(random: SeededRandom, total: number, caps: readonly number[]): number[] {
  const parts = caps.map(() => 1);
  const open = caps.map((_, index) => index).filter((index) => caps[index]! > 1);
  for (let left = total - caps.length; left > 0; left--) {
    const pick = random.integer(0, open.length - 1);
    const index = open[pick]!;
    parts[index]!++;
    if (parts[index] === caps[index]) open.splice(pick, 1);
  }
  return parts;
}

/**
 * Corrected counts for the given wrong ones: the same sum, every count ≥ 1 and different from
 * its wrong count. Each count moves up or down by at least one: counts of 1 must go up, the
 * others go up or down at random, and what goes down equals what goes up. Needs Σwrong ≥ 2k
 * (then moving every count above 1 down leaves room for all the 1s to go up).
 */
export function correctedCounts(random: SeededRandom, wrong: readonly number[]): number[] {
  const k = wrong.length;
  const down = wrong.map((count) => count > 1 && random.next() < 0.5);
  const capacity = () => wrong.reduce((sum, count, index) => sum + (down[index] ? count - 1 : 0), 0);
  const upCount = () => down.filter((value) => !value).length;
  const candidates = wrong.map((_, index) => index).filter((index) => wrong[index]! > 1);
  // Enough room below to pay for every rise, and at least one count on each side.
  while (!down.some(Boolean) || capacity() < upCount()) {
    const rising = candidates.filter((index) => !down[index]);
    if (rising.length === 0) throw new Error('internal: the wrong counts sum to less than 2k');
    down[rising[random.integer(0, rising.length - 1)]!] = true;
  }
  if (upCount() === 0) down[candidates[random.integer(0, candidates.length - 1)]!] = false;
  const fallers = wrong.map((_, index) => index).filter((index) => down[index]);
  const risers = wrong.map((_, index) => index).filter((index) => !down[index]);
  const least = Math.max(fallers.length, risers.length);
  const moved = random.integer(least, Math.max(least, capacity()));
  const falls = boundedSplit(
    random,
    moved,
    fallers.map((index) => wrong[index]! - 1),
  );
  const rises = composition(random, moved, risers.length);
  const corrected = [...wrong];
  fallers.forEach((index, position) => {
    corrected[index]! -= falls[position]!;
  });
  risers.forEach((index, position) => {
    corrected[index]! += rises[position]!;
  });
  if (k < 2 || corrected.some((count, index) => count < 1 || count === wrong[index])) {
    throw new Error('internal: corrected counts violate their constraints');
  }
  return corrected;
}

/**
 * Seeded draws of one group (the spec's constraints, the published generator being unknown):
 * k in [min, max]; repeat counts all 1; increase 1 … k; the shuffle counts, which are also the
 * correction sample's wrong counts, a random split of a total in [2k, 99] into k counts ≥ 1
 * (every published group's total is at least 2k); the corrected counts have the same total,
 * each differing from its wrong count.
 */
export function seededGroupDraws(options: {
  seed: string;
  sentences: { min: number; max: number };
}): Record<CountingType, Omit<CountingDraw, 'offsets' | 'source'>> {
  const random = new SeededRandom(options.seed);
  const k = random.integer(options.sentences.min, options.sentences.max);
  const total = random.integer(2 * k, 99);
  const wrong = composition(random, total, k);
  const corrected = correctedCounts(random, wrong);
  return {
    repeat: { counts: Array.from({ length: k }, () => 1), wrongCounts: undefined },
    increase: { counts: Array.from({ length: k }, (_, index) => index + 1), wrongCounts: undefined },
    shuffle: { counts: wrong, wrongCounts: undefined },
    correction: { counts: corrected, wrongCounts: wrong },
  };
}
