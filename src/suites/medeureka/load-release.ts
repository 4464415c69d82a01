import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MedbenchError } from '../../core/errors.js';
import type { RetrievalTask } from './assemble-tasks.js';
import { isSaveToDiskFolder, loadParquetRelease, loadSaveToDiskRelease } from './load-hf-release.js';
import { loadPlainRelease } from './load-plain.js';

/**
 * Loads a MedEureka release in any official form: the plain form (queries.jsonl +
 * corpus.json), a Hugging Face `save_to_disk` folder (Arrow), or its Parquet copy. The folder
 * may also be the parent of a `dataset/` or `MedEureka/` folder. `split` names the query split of
 * the Hugging Face forms (default `test`; `train` for mining training triples).
 */
export async function loadMedEurekaRelease(
  folder: string,
  options: { split?: string } = {},
): Promise<RetrievalTask[]> {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `MedEureka release folder not found: ${folder}`,
      hint: 'Pass the folder saved with save_to_disk, its Parquet copy, or a plain queries.jsonl + corpus.json folder.',
    });
  if (existsSync(join(folder, 'queries.jsonl')) || existsSync(join(folder, 'corpus.json'))) {
    // The plain form is one query split: another one asked for would be the test queries unsaid.
    if (options.split !== undefined && options.split !== 'test')
      throw new MedbenchError({
        code: 'USAGE',
        message: `--split ${options.split}: ${folder} is the plain form (queries.jsonl + corpus.json), which has one query split.`,
        hint: 'Leave --split out for the plain form, or pass a Hugging Face release (save_to_disk or Parquet) that has that split.',
      });
    return loadPlainRelease(folder);
  }
  if (isSaveToDiskFolder(folder)) return loadSaveToDiskRelease(folder, options.split);
  for (const child of ['dataset', 'MedEureka']) {
    if (existsSync(join(folder, child))) return loadMedEurekaRelease(join(folder, child), options);
  }
  const parquet = await loadParquetRelease(folder, options.split);
  if (parquet) return parquet;
  throw new MedbenchError({
    code: 'DATA_NOT_FOUND',
    message: `${folder} is not a MedEureka release: no queries.jsonl, no save_to_disk splits, no Parquet files.`,
    hint: 'See docs/formats.md (MedEureka) for the accepted layouts.',
  });
}
