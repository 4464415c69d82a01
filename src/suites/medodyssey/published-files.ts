import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MedbenchError } from '../../core/errors.js';
import type { Language } from './constants.js';

/** What a published output file holds, read from its folder and name. */
export type PublishedFileKind =
  | { task: 'niah' }
  | { task: 'counting'; haystack: 'medical' | 'generic'; mic: 'ratio' | 'per-model' }
  | { task: 'kg' | 'term' | 'table' | 'case' };

export interface PublishedFile {
  /** Path relative to evaluation_result/, as printed to the user. */
  name: string;
  path: string;
  language: Language;
  /** The model id from the file name (`zh_kg_gpt-4o_v1.jsonl` → `gpt-4o`). */
  model: string;
  kind: PublishedFileKind;
  /** How many outputs the release grid has for this file (the paper's sample count). */
  expected: number;
}

/** task_result file prefixes → medbench task (Term is `norm` in the release). */
const MEDICAL_PREFIXES: Readonly<Record<string, 'kg' | 'term' | 'table' | 'case'>> = {
  kg: 'kg',
  norm: 'term',
  table: 'table',
  medcase: 'case',
};

/** Samples per file in the published grid: NIAH 20 needles × 7 levels × 5 depths, Counting 28, medical 100. */
export const PUBLISHED_GRID = { niah: 700, counting: 28, medical: 100 } as const;

function classify(folder: string, fileName: string): Omit<PublishedFile, 'path' | 'name'> | undefined {
  const match = /^(en|zh)_(.+)_v\d+\.jsonl$/.exec(fileName);
  if (!match) return undefined;
  const language = match[1] as Language;
  const rest = match[2]!;
  if (folder === 'niah_result') {
    return { language, model: rest, kind: { task: 'niah' }, expected: PUBLISHED_GRID.niah };
  }
  if (folder === 'counting_compare_result' || folder === 'task_result') {
    const counting = /^counting(?:_(general|max))?_(.+)$/.exec(rest);
    if (counting) {
      const variant = counting[1];
      return {
        language,
        model: counting[2]!,
        kind: {
          task: 'counting',
          haystack: variant === 'general' ? 'generic' : 'medical',
          mic: variant === 'max' ? 'per-model' : 'ratio',
        },
        expected: PUBLISHED_GRID.counting,
      };
    }
  }
  if (folder === 'task_result') {
    const medical = /^(kg|norm|table|medcase)_(.+)$/.exec(rest);
    if (medical) {
      return {
        language,
        model: medical[2]!,
        kind: { task: MEDICAL_PREFIXES[medical[1]!]! },
        expected: PUBLISHED_GRID.medical,
      };
    }
  }
  return undefined;
}

/** Finds evaluation_result/ given the release folder, the repository root, or the folder itself. */
export function resolveEvaluationFolder(folder: string): string {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `Folder not found: ${folder}`,
      hint: "Pass the MedOdyssey release folder that holds evaluation_result/ (the authors' dataset/ folder with their evaluation_result/ inside, or the repository root).",
    });
  }
  for (const candidate of [
    join(folder, 'evaluation_result'),
    join(folder, 'dataset', 'evaluation_result'),
    folder,
  ]) {
    if (
      ['niah_result', 'task_result', 'counting_compare_result'].some((sub) =>
        existsSync(join(candidate, sub)),
      )
    )
      return candidate;
  }
  throw new MedbenchError({
    code: 'DATA_NOT_FOUND',
    message: `No published outputs in ${folder}: none of evaluation_result/{niah_result,task_result,counting_compare_result} exists there.`,
    hint: "Pass the MedOdyssey release folder that holds evaluation_result/ (the authors' dataset/ folder with their evaluation_result/ inside, or the repository root).",
  });
}

/** The release's dataset/ folder beside (or around) evaluation_result/, if there is one. */
export function releaseFolderBeside(evaluationFolder: string): string {
  const parent = join(evaluationFolder, '..');
  for (const candidate of [parent, join(parent, 'dataset')]) {
    if (existsSync(join(candidate, 'task_data')) || existsSync(join(candidate, 'raw_data'))) return candidate;
  }
  return parent;
}

/**
 * Every published output file under evaluation_result/, sorted by name, and the `.jsonl`
 * files whose names follow none of the release's patterns (reported, not read).
 */
export function listPublishedFiles(evaluationFolder: string): {
  files: PublishedFile[];
  unknown: string[];
} {
  const files: PublishedFile[] = [];
  const unknown: string[] = [];
  for (const folder of ['niah_result', 'task_result', 'counting_compare_result']) {
    const directory = join(evaluationFolder, folder);
    if (!existsSync(directory)) continue;
    for (const fileName of readdirSync(directory).sort()) {
      if (!fileName.endsWith('.jsonl')) continue;
      const name = `${folder}/${fileName}`;
      const classified = classify(folder, fileName);
      if (classified) files.push({ ...classified, name, path: join(directory, fileName) });
      else unknown.push(name);
    }
  }
  return { files, unknown };
}

/** Output files that hold not one output: nothing to import. */
export function noOutputs(evaluationFolder: string, files: ReadonlyArray<{ name: string }>): MedbenchError {
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `The published output files in ${evaluationFolder} hold no outputs: not one line in ${files.map((file) => file.name).join(', ')}.`,
    hint: 'Pass the release whose evaluation_result/ files hold the model outputs (one JSON object per line).',
  });
}

/** What `readPublishedOutputs` reads: the evaluation folder, the release beside it, and who hears of each file. */
export interface ReadPublishedOptions {
  folder: string;
  /** The release's dataset/ folder (needles, Case alternatives), if not beside the evaluation folder. */
  datasetFolder?: string;
  /** Called before each file is read (`index` of `total`), for a progress line. */
  onFile?: (name: string, index: number, total: number) => void;
}
