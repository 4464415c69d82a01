import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { parseJsonText, readTextFile } from '../../io/text-file.js';
import { assembleTasks, type ReleaseRow, type RetrievalTask } from './assemble-tasks.js';

export type { RetrievalTask };

const querySchema = z.object({
  task: z.string().min(1),
  query: z.string().min(1),
  targets: z.array(z.string().min(1)).min(1),
});

/**
 * The plain form of a MedEureka release: `queries.jsonl` ({ task, query, targets }) and
 * `corpus.json` ({ task key: [texts] }). Every task needs a corpus, and every target text
 * must be in its corpus; errors name the file and line.
 */
export function loadPlainRelease(folder: string): RetrievalTask[] {
  const queriesPath = join(folder, 'queries.jsonl');
  const corpusPath = join(folder, 'corpus.json');
  for (const path of [queriesPath, corpusPath]) {
    if (!existsSync(path)) {
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `MedEureka file not found: ${path}`,
        hint: 'A plain release folder holds queries.jsonl and corpus.json (docs/formats.md, MedEureka).',
      });
    }
  }
  const corpusJson = parseJsonText(readTextFile(corpusPath), corpusPath);
  const corpora = z.record(z.string(), z.array(z.string())).safeParse(corpusJson);
  if (!corpora.success) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${corpusPath}: ${corpora.error.issues[0]!.path.join('.')} ${corpora.error.issues[0]!.message}`,
    });
  }
  const rows: ReleaseRow[] = [];
  readTextFile(queriesPath)
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      const where = `${queriesPath}:${index + 1}`;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new MedbenchError({ code: 'DATA_INVALID', message: `${where}: not valid JSON` });
      }
      const parsed = querySchema.safeParse(value);
      if (!parsed.success) {
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${where}: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`,
        });
      }
      rows.push({ ...parsed.data, where });
    });
  return assembleTasks({ rows, corpora: corpora.data, corpusSource: corpusPath });
}
