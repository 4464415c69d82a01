import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MedbenchError } from '../../src/core/errors.js';

/**
 * Property-test helpers: arbitrary edits of real input files, and the one property every parser
 * and loader must hold — it returns, or it throws a MedbenchError with a message (never a
 * TypeError, RangeError, SyntaxError or a library's own error).
 */

/** The error `run` threw, checked to be a MedbenchError with a message. */
function checked(error: unknown): MedbenchError {
  if (!(error instanceof MedbenchError)) {
    const shown = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error);
    throw new Error(`not a MedbenchError: ${shown}`);
  }
  if (error.message.trim() === '') throw new Error(`a ${error.code} error without a message`);
  return error;
}

/** Fails unless `run` returns or throws a MedbenchError; resolves to the error, if any. */
export async function onlyMedbenchErrors(run: () => unknown): Promise<MedbenchError | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return checked(error);
  }
}

/** Synchronous form, for pure functions. */
export function onlyMedbenchErrorsSync(run: () => unknown): MedbenchError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return checked(error);
  }
}

type JsonValue = unknown;
type Path = Array<string | number>;

function pathsOf(value: JsonValue, prefix: Path = [], out: Path[] = [], limit = 400): Path[] {
  if (out.length >= limit) return out;
  out.push(prefix);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) pathsOf(item, [...prefix, index], out, limit);
  } else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out, limit);
  return out;
}

/** `value` with the item at `path` replaced (or deleted when `replacement` is undefined). */
function edited(value: JsonValue, path: Path, replacement: JsonValue | undefined): JsonValue {
  if (path.length === 0) return replacement ?? null;
  const copy: JsonValue = structuredClone(value);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = replacement;
  return copy;
}

/** An edit of a file's bytes. */
export type Edit = (bytes: Buffer) => Buffer;

/** Values a loader meets in damaged or hand-edited files: wrong types, huge and odd numbers, odd text. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, '', ' ', '\u0000', '𝔘', [], {}, null, true),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

function jsonEdit(bytes: Buffer, pick: number, replacement: unknown): Buffer {
  const text = bytes.toString('utf8');
  const rewrite = (source: string, pretty: boolean): string | undefined => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(source);
    } catch {
      return undefined;
    }
    const paths = pathsOf(parsed);
    const out = edited(parsed, paths[pick % paths.length]!, replacement);
    return pretty ? JSON.stringify(out, null, 2) : JSON.stringify(out);
  };
  const whole = rewrite(text, true);
  if (whole !== undefined) return Buffer.from(whole);
  // JSON Lines: edit one line.
  const lines = text.split('\n');
  const index = pick % lines.length;
  const line = rewrite(lines[index]!, false);
  if (line === undefined) return bytes;
  lines[index] = line;
  return Buffer.from(lines.join('\n'));
}

const at = (bytes: Buffer, fraction: number) => Math.floor(fraction * bytes.length);

/** Arbitrary edits: JSON-aware replacements and deletions, truncation, insertions, byte flips, encodings. */
export const anEdit: fc.Arbitrary<{ name: string; apply: Edit }> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.tuple(fc.nat(), oddValue).map(([pick, value]) => ({
      name: `json item ${pick} = ${JSON.stringify(value)?.slice(0, 60)}`,
      apply: (bytes: Buffer) => jsonEdit(bytes, pick, value),
    })),
  },
  {
    weight: 2,
    arbitrary: fc.nat().map((pick) => ({
      name: `json item ${pick} deleted`,
      apply: (bytes: Buffer) => jsonEdit(bytes, pick, undefined),
    })),
  },
  {
    weight: 1,
    arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => ({
      name: `cut at ${fraction}`,
      apply: (bytes: Buffer) => bytes.subarray(0, at(bytes, fraction)),
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ unit: 'binary', maxLength: 20 }))
      .map(([fraction, text]) => ({
        name: `insert ${JSON.stringify(text)} at ${fraction}`,
        apply: (bytes: Buffer) =>
          Buffer.concat([
            bytes.subarray(0, at(bytes, fraction)),
            Buffer.from(text),
            bytes.subarray(at(bytes, fraction)),
          ]),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 64 }))
      .map(([fraction, length]) => ({
        name: `delete ${length} bytes at ${fraction}`,
        apply: (bytes: Buffer) =>
          Buffer.concat([
            bytes.subarray(0, at(bytes, fraction)),
            bytes.subarray(at(bytes, fraction) + length),
          ]),
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 }))
      .map(([fraction, byte]) => ({
        name: `byte ${byte} at ${fraction}`,
        apply: (bytes: Buffer) => {
          const copy = Buffer.from(bytes);
          if (copy.length > 0) copy[Math.min(at(copy, fraction), copy.length - 1)] = byte;
          return copy;
        },
      })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      {
        name: 'UTF-8 BOM',
        apply: (bytes: Buffer) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]),
      },
      {
        name: 'UTF-16',
        apply: (bytes: Buffer) =>
          Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('utf8'), 'utf16le')]),
      },
      {
        name: 'CRLF',
        apply: (bytes: Buffer) => Buffer.from(bytes.toString('utf8').replaceAll('\n', '\r\n')),
      },
      { name: 'empty', apply: () => Buffer.alloc(0) },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 200 }).map((random) => ({
      name: `replaced by ${random.length} random bytes`,
      apply: () => Buffer.from(random),
    })),
  },
);

/**
 * Binary formats: a 4- or 8-byte little-endian number written over the first `within` bytes (a
 * header's counts, lengths and offsets), with the values damage and hostile files hold.
 */
export function aNumberEdit(within: number): fc.Arbitrary<{ name: string; apply: Edit }> {
  const values = [0n, 1n, 9n, 63n, 64n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 40n, 2n ** 63n, 2n ** 64n - 1n];
  return fc
    .tuple(fc.nat({ max: within - 1 }), fc.constantFrom(...values), fc.constantFrom(4, 8))
    .map(([at, value, width]) => ({
      name: `u${width * 8} ${value} at byte ${at}`,
      apply: (bytes: Buffer) => {
        const copy = Buffer.from(bytes);
        if (at + width > copy.length) return copy;
        if (width === 8) copy.writeBigUInt64LE(value, at);
        else copy.writeUInt32LE(Number(value & 0xffffffffn), at);
        return copy;
      },
    }));
}

/**
 * Runs per property, scaled by MEDBENCH_FUZZ_SCALE (e.g. 20 for a long hunt, with vitest --testTimeout=0); MEDBENCH_FUZZ_SEED
 * replays a reported failure.
 */
export function fuzzParameters(runs: number): fc.Parameters<unknown> {
  const scale = Number(process.env.MEDBENCH_FUZZ_SCALE ?? 1);
  const seed = process.env.MEDBENCH_FUZZ_SEED;
  return {
    numRuns: Math.max(1, Math.round(runs * (Number.isFinite(scale) && scale > 0 ? scale : 1))),
    ...(seed ? { seed: Number(seed) } : {}),
  };
}

/**
 * Checks `load` on edited copies of the files of `source`: each run edits one of `files` (paths
 * relative to the folder) one to three times, loads the copy, and puts the file back.
 */
export async function fuzzFolder(options: {
  source: string;
  files: readonly string[];
  load: (folder: string) => unknown;
  runs?: number;
  /** The edits to draw from (default `anEdit`). */
  edit?: fc.Arbitrary<{ name: string; apply: Edit }>;
}): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'medbench-fuzz-'));
  cpSync(options.source, folder, { recursive: true });
  const originals = new Map(options.files.map((file) => [file, readFileSync(join(folder, file))]));
  // The unedited copy loads: otherwise every failure below would be about the fixture.
  await options.load(folder);
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...options.files),
        fc.array(options.edit ?? anEdit, { minLength: 1, maxLength: 3 }),
        async (file, edits) => {
          const path = join(folder, file);
          writeFileSync(
            path,
            edits.reduce<Buffer>((bytes, edit) => edit.apply(bytes), originals.get(file)!),
          );
          try {
            await onlyMedbenchErrors(() => options.load(folder));
          } finally {
            writeFileSync(path, originals.get(file)!);
          }
        },
      ),
      fuzzParameters(options.runs ?? 150),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
