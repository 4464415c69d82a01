import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import type { Sample, SampleStatus } from '../../core/sample.js';
import type { Task } from '../../core/task.js';
import { extractJsonAnswer } from '../../metrics/json-answer.js';
import { pythonString } from '../../metrics/string-match.js';
import { type CountingType, type Language, levelName } from './constants.js';
import { countingTask } from './counting-task.js';
import { caseTask, kgTask, tableTask, termTask } from './medical-tasks.js';
import { niahTask } from './niah-task.js';
import { NIAH_ANSWER_KEYS } from './prompts.js';
import { loadNeedles, resolveDatasetFolder } from './release.js';

/** The ten published models: display name (as in the paper's tables) and context window. */
export const PUBLISHED_MODELS: Readonly<Record<string, { label: string; contextWindow: number }>> = {
  'gpt-4-turbo-2024-04-09': { label: 'GPT-4', contextWindow: 128000 },
  'gpt-4o': { label: 'GPT-4o', contextWindow: 128000 },
  'claude-3-haiku-20240307': { label: 'Claude 3 Haiku', contextWindow: 200000 },
  'claude-3-sonnet-20240229': { label: 'Claude 3 Sonnet', contextWindow: 200000 },
  'moonshot-v1-128k': { label: 'Moonshot-v1', contextWindow: 128000 },
  'chatglm3-6b-128k': { label: 'ChatGLM3-6b-128k', contextWindow: 128000 },
  'internlm2-chat-7b': { label: 'InternLM2-chat-7b', contextWindow: 200000 },
  'internlm2-chat-20b': { label: 'InternLM2-chat-20b', contextWindow: 200000 },
  'Yi-6B-200K': { label: 'Yi-6b-200k', contextWindow: 200000 },
  'Yarn-Mistral-7b-128k': { label: 'Yarn-Mistral-7b-128k', contextWindow: 128000 },
};

const COUNTING_TYPE_NAMES: Readonly<Record<string, CountingType>> = {
  acquisition_1: 'repeat',
  acquisition_inc: 'increase',
  acquisition_shuffle: 'shuffle',
  reasoning: 'correction',
};

/** task_result file prefixes of the medical tasks → medbench task, language and gold shape. */
const MEDICAL_FILES: Readonly<Record<string, { task: Task; language: Language }>> = {
  en_kg: { task: kgTask, language: 'en' },
  zh_kg: { task: kgTask, language: 'zh' },
  en_norm: { task: termTask, language: 'en' },
  zh_norm: { task: termTask, language: 'zh' },
  zh_table: { task: tableTask, language: 'zh' },
  zh_medcase: { task: caseTask, language: 'zh' },
};

/** Fields every task_result line has (formats.md). */
const taskLineSchema = z.object({
  id: z.union([z.number(), z.string()]),
  pred_answer: z.unknown(),
  pred_origin: z.string().nullable(),
  token_len: z.number().nullable().optional(),
  sample_size: z.number().int(),
  model: z.string(),
  note: z.string(),
});

const medicalLineSchema = taskLineSchema.extend({
  type: z.string().optional(),
  true_answer: z.union([z.string(), z.array(z.string())]),
});

/** `raw_data/zh_medcase/answer_correct.json`: sample id → accepted alternatives (one-element lists). */
export function loadCaseAlternatives(datasetFolder: string): Record<string, string[][]> {
  const path = join(datasetFolder, 'raw_data', 'zh_medcase', 'answer_correct.json');
  if (!existsSync(path)) return {};
  const parsed = z
    .record(z.string(), z.array(z.array(z.string())))
    .safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path}: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`,
    });
  }
  return parsed.data;
}

function medicalGold(
  task: Task,
  trueAnswer: string | string[],
  alternatives: string[][] | undefined,
): unknown {
  const list = Array.isArray(trueAnswer) ? trueAnswer : [trueAnswer];
  if (task === termTask) return { answer: Array.isArray(trueAnswer) ? (trueAnswer[0] ?? '') : trueAnswer };
  if (task === kgTask) return { triplets: list };
  if (task === tableTask) return { answers: list };
  const all = [list, ...(alternatives ?? [])];
  return {
    alternatives: all.filter(
      (alternative, index) => all.findIndex((other) => other[0] === alternative[0]) === index,
    ),
  };
}

const niahLineSchema = z.object({
  idx: z.number().int(),
  type: z.string(),
  pred_answer: z.unknown(),
  pred_origin: z.string().nullable(),
  'position(%)': z.number(),
  'length(tokens)': z.number().nullable().optional(),
  'length(origin)': z.number().int(),
  model: z.string(),
  note: z.string(),
});

const countingLineSchema = taskLineSchema.extend({
  type: z.string(),
  input: z.string(),
  true_answer: z.array(z.number()),
});

/** One published output, turned into a sample plus the model's answer. */
export interface ImportedResult {
  model: string;
  sample: Sample;
  /** The prompt when the file holds it (counting); NIAH files do not. */
  hasPrompt: boolean;
  rawOutput: string | null;
  status: SampleStatus;
  parsed: unknown;
  scores: Record<string, number>;
  promptTokens: number | null;
}

export interface ImportStatistics {
  files: number;
  lines: number;
  /** Lines where medbench's parser and the published `pred_answer`/`note` disagree. */
  parserDisagreements: Array<{ file: string; line: number; detail: string }>;
}

function readLines<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
): Array<{ line: number; value: z.infer<Schema> }> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, line }) => {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new MedbenchError({ code: 'DATA_INVALID', message: `${path}:${line}: not valid JSON.` });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${path}:${line}: field ${issue.path.join('.') || '(root)'}: ${issue.message}`,
          hint: 'The published output files are described in shared/spec/formats.md.',
        });
      }
      return { line, value: parsed.data };
    });
}

/** Finds evaluation_result/ given the repository root or the folder itself. */
export function resolveEvaluationFolder(folder: string): string {
  for (const candidate of [join(folder, 'evaluation_result'), folder]) {
    if (existsSync(join(candidate, 'niah_result')) || existsSync(join(candidate, 'task_result')))
      return candidate;
  }
  throw new MedbenchError({
    code: 'DATA_NOT_FOUND',
    message: `No published outputs in ${folder}: neither evaluation_result/niah_result nor niah_result exists.`,
    hint: "Pass the root of the MedOdyssey authors' repository (holding evaluation_result/).",
  });
}

const sameValue = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/** Re-scores one published output in compat mode; a "too long" note means it was never sent. */
function rescore(options: {
  task: Task;
  model: string;
  sample: Sample;
  note: string;
  rawOutput: string | null;
  hasPrompt: boolean;
  promptTokens: number | null;
}): ImportedResult {
  const base = {
    model: options.model,
    sample: options.sample,
    hasPrompt: options.hasPrompt,
    promptTokens: options.promptTokens,
  };
  if (options.note === 'too long') {
    return { ...base, rawOutput: null, status: 'too_long', parsed: null, scores: options.task.failedScores };
  }
  const rawOutput = options.rawOutput ?? '';
  const scored = options.task.score({ sample: options.sample, rawOutput, mode: 'compat' });
  return { ...base, rawOutput, status: scored.status, parsed: scored.parsed, scores: scored.scores };
}

/**
 * Reads the published NIAH and Counting outputs and re-scores them with medbench's own
 * parser and metrics in compat mode. NIAH answers are checked against every accepted
 * answer of the needle file (looked up by `idx`), not the single `true_answer`.
 */
export function readPublishedOutputs(options: { folder: string; needlesFolder?: string }): {
  results: ImportedResult[];
  statistics: ImportStatistics;
} {
  const evaluation = resolveEvaluationFolder(options.folder);
  const datasetFolder = resolveDatasetFolder(options.needlesFolder ?? options.folder);
  const statistics: ImportStatistics = { files: 0, lines: 0, parserDisagreements: [] };
  const results: ImportedResult[] = [];
  const needlesByLanguage = new Map<Language, Map<number, string[]>>();
  const answersFor = (language: Language, id: number, file: string, line: number) => {
    if (!needlesByLanguage.has(language)) {
      needlesByLanguage.set(
        language,
        new Map(loadNeedles(datasetFolder, language).map((needle) => [needle.id, needle.ground_truth])),
      );
    }
    const answers = needlesByLanguage.get(language)!.get(id);
    if (!answers)
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${file}:${line}: needle ${id} is not in the ${language} needles file.`,
      });
    return answers;
  };

  const niahFolder = join(evaluation, 'niah_result');
  const niahFiles = existsSync(niahFolder)
    ? readdirSync(niahFolder)
        .filter((name) => /^(en|zh)_.+\.jsonl$/.test(name))
        .sort()
    : [];
  for (const name of niahFiles) {
    const language = name.slice(0, 2) as Language;
    const path = join(niahFolder, name);
    statistics.files++;
    for (const { line, value } of readLines(path, niahLineSchema)) {
      statistics.lines++;
      const level = value['length(origin)'];
      const depth = value['position(%)'];
      const sample: Sample = {
        id: `niah-${language}-${levelName(level)}-d${depth}-n${value.idx}`,
        suite: 'medodyssey',
        task: 'niah',
        params: {
          language,
          level,
          depth,
          needleId: value.idx,
          needleType: value.type,
          mic: 'ratio',
          haystack: 'medical',
        },
        prompt: '',
        promptChars: 0,
        promptTokens: {},
        gold: { answers: answersFor(language, value.idx, path, line) },
      };
      const imported = rescore({
        task: niahTask,
        model: value.model,
        sample,
        note: value.note,
        rawOutput: value.pred_origin,
        hasPrompt: false,
        promptTokens: value['length(tokens)'] ?? null,
      });
      results.push(imported);
      if (imported.status !== 'too_long') {
        const theirs = value.note === 'wrong format' ? 'bad_format' : 'ok';
        const extracted = extractJsonAnswer(imported.rawOutput ?? '', NIAH_ANSWER_KEYS);
        if (imported.status !== theirs) {
          statistics.parserDisagreements.push({
            file: name,
            line,
            detail: `medbench: ${imported.status}, published note: "${value.note}"`,
          });
        } else if (
          extracted.wellFormed &&
          pythonString(extracted.value) !== pythonString(value.pred_answer)
        ) {
          statistics.parserDisagreements.push({ file: name, line, detail: 'parsed answers differ' });
        }
      }
    }
  }

  const taskFolder = join(evaluation, 'task_result');
  const countingFiles = existsSync(taskFolder)
    ? readdirSync(taskFolder)
        .filter((name) => /^(en|zh)_counting_.+\.jsonl$/.test(name))
        .sort()
    : [];
  for (const name of countingFiles) {
    const language = name.slice(0, 2) as Language;
    const path = join(taskFolder, name);
    statistics.files++;
    const seen = new Set<string>();
    for (const { line, value } of readLines(path, countingLineSchema)) {
      statistics.lines++;
      const type = COUNTING_TYPE_NAMES[value.type];
      if (!type)
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${path}:${line}: unknown counting type "${value.type}".`,
        });
      let id = `counting-${language}-${levelName(value.sample_size)}-${type}`;
      if (seen.has(`${value.model}/${id}`)) id += `-${value.id}`;
      seen.add(`${value.model}/${id}`);
      const sample: Sample = {
        id,
        suite: 'medodyssey',
        task: 'counting',
        params: {
          language,
          level: value.sample_size,
          countingType: type,
          sentences: value.true_answer.length,
          mic: 'ratio',
          haystack: 'medical',
        },
        prompt: value.input,
        promptChars: [...value.input].length,
        promptTokens: {},
        gold: { counts: value.true_answer },
      };
      const imported = rescore({
        task: countingTask,
        model: value.model,
        sample,
        note: value.note,
        rawOutput: value.pred_origin,
        hasPrompt: true,
        promptTokens: value.token_len ?? null,
      });
      results.push(imported);
      if (imported.status === 'ok' && !sameValue(imported.parsed, value.pred_answer)) {
        statistics.parserDisagreements.push({ file: name, line, detail: 'parsed answers differ' });
      }
    }
  }
  const medicalFiles = existsSync(taskFolder)
    ? readdirSync(taskFolder)
        .filter((name) => /^(en_kg|zh_kg|en_norm|zh_norm|zh_table|zh_medcase)_.+\.jsonl$/.test(name))
        .sort()
    : [];
  const alternatives = medicalFiles.some((name) => name.startsWith('zh_medcase_'))
    ? loadCaseAlternatives(datasetFolder)
    : {};
  for (const name of medicalFiles) {
    const prefix = /^(en_kg|zh_kg|en_norm|zh_norm|zh_table|zh_medcase)_/.exec(name)![1]!;
    const { task, language } = MEDICAL_FILES[prefix]!;
    const path = join(taskFolder, name);
    statistics.files++;
    for (const { line, value } of readLines(path, medicalLineSchema)) {
      statistics.lines++;
      const sample: Sample = {
        id: `${task.name}-${language}-${value.id}`,
        suite: 'medodyssey',
        task: task.name,
        params: { language, level: value.sample_size, subtype: value.type ?? '', mic: 'ratio' },
        prompt: '',
        promptChars: 0,
        promptTokens: {},
        gold: medicalGold(task, value.true_answer, alternatives[String(value.id)]),
      };
      const imported = rescore({
        task,
        model: value.model,
        sample,
        note: value.note,
        rawOutput: value.pred_origin,
        hasPrompt: false,
        promptTokens: value.token_len ?? null,
      });
      results.push(imported);
      if (
        imported.status !== 'too_long' &&
        imported.status !== (value.note === 'wrong format' ? 'bad_format' : 'ok')
      ) {
        statistics.parserDisagreements.push({
          file: name,
          line,
          detail: `medbench: ${imported.status}, published note: "${value.note}"`,
        });
      }
    }
  }
  if (statistics.files === 0) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No published output files in ${evaluation}.`,
      hint: 'Expected niah_result/{en|zh}_<model>_v1.jsonl and task_result/<task>_<model>_v1.jsonl (counting, kg, norm, table, medcase).',
    });
  }
  return { results, statistics };
}
