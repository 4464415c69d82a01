import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { fileError, MedbenchError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import { readTextLines } from '../io/text-file.js';

export const DATASET_FORMAT_VERSION = 1;

const headerSchema = z.object({
  medbenchDataset: z.literal(DATASET_FORMAT_VERSION),
  suite: z.string(),
  createdAt: z.string(),
  generator: z.string(),
  build: z.record(z.string(), z.unknown()),
  tokenizers: z.array(z.string()),
  /** Its text may only go to endpoints approved for restricted (credentialed) data. */
  restricted: z.boolean().optional(),
});
export type DatasetHeader = z.infer<typeof headerSchema>;

const sampleSchema = z.object({
  id: z.string().min(1),
  suite: z.string(),
  task: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  prompt: z.string(),
  messages: z
    .array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() }).strict())
    .min(1)
    .optional(),
  promptChars: z.number().int().nonnegative(),
  promptTokens: z.record(z.string(), z.number().int().nonnegative()),
  gold: z.unknown(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export interface Dataset {
  path: string;
  /**
   * sha256 of the sample lines: a rebuild with identical samples has the same id (the
   * header's timestamp and paths do not count), so its runs resume.
   */
  id: string;
  header: DatasetHeader;
  samples: Sample[];
}

/**
 * Writes a dataset file: a header line, then one sample per line. The file appears only
 * when complete (written beside it, then renamed), so a failed build leaves nothing.
 */
export async function writeDataset(options: {
  path: string;
  header: Omit<DatasetHeader, 'medbenchDataset'>;
  samples: Iterable<Sample>;
}): Promise<{ count: number; id: string }> {
  const partial = `${options.path}.partial`;
  try {
    mkdirSync(dirname(resolve(options.path)), { recursive: true });
  } catch (error) {
    throw fileError(error, { path: options.path, action: 'write' });
  }
  const stream = createWriteStream(partial, { encoding: 'utf8' });
  const hash = createHash('sha256');
  const put = async (line: string, hashed = true) => {
    if (hashed) hash.update(line);
    if (!stream.write(line)) await once(stream, 'drain');
  };
  let count = 0;
  try {
    await once(stream, 'open');
    await put(`${JSON.stringify({ medbenchDataset: DATASET_FORMAT_VERSION, ...options.header })}\n`, false);
    for (const sample of options.samples) {
      await put(`${JSON.stringify(sample)}\n`);
      count++;
    }
    stream.end();
    await once(stream, 'finish');
    renameSync(partial, options.path);
  } catch (error) {
    if (!stream.closed) {
      // A destroyed stream may still report its pending write as an error: ignore it.
      stream.on('error', () => {});
      const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
      stream.destroy();
      await closed;
    }
    rmSync(partial, { force: true });
    throw MedbenchError.is(error) ? error : fileError(error, { path: options.path, action: 'write' });
  }
  return { count, id: hash.digest('hex') };
}

function invalid(path: string, line: number, detail: string): MedbenchError {
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `${path}:${line}: ${detail}`,
    hint: 'Dataset files are written by `medbench build`; rebuild it rather than editing it by hand.',
  });
}

/** Reads and validates a dataset file; errors name the file and line. */
export async function readDataset(path: string): Promise<Dataset> {
  if (!existsSync(path)) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `Dataset file not found: ${path}`,
      hint: "Build one with its suite's build command (`medbench build --help`): `medbench build <suite> … --out <file>`.",
    });
  }
  if (statSync(path).isDirectory()) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `--dataset ${path} is a folder; it takes a dataset file (JSONL) written by \`medbench build\`.`,
    });
  }
  const hash = createHash('sha256');
  let header: DatasetHeader | undefined;
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for await (const { line: number, text: line } of readTextLines(path)) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw invalid(path, number, 'not valid JSON');
    }
    if (!header) {
      const parsed = headerSchema.safeParse(value);
      if (!parsed.success) {
        throw invalid(
          path,
          number,
          `not a medbench dataset header (${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message})`,
        );
      }
      header = parsed.data;
      continue;
    }
    const parsed = sampleSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw invalid(path, number, `sample field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    if (seen.has(parsed.data.id)) throw invalid(path, number, `duplicate sample id ${parsed.data.id}`);
    hash.update(`${line}\n`);
    seen.add(parsed.data.id);
    samples.push(parsed.data as Sample);
  }
  if (!header) throw invalid(path, 1, 'the file is empty');
  return { path, id: hash.digest('hex'), header, samples };
}
