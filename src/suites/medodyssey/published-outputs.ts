import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MedbenchError } from '../../core/errors.js';
import type { Sample, SampleParams, SampleStatus } from '../../core/sample.js';
import type { ScoringMode, Task } from '../../core/task.js';
import { codePointLength } from '../../tokenizers/code-point-text.js';
import { type CountingType, type Language, levelName, OWN_SCORE_PREFIX } from './constants.js';
import { countingTask } from './counting-task.js';
import { caseTask, kgTask, tableTask, termTask } from './medical-tasks.js';
import { niahTask } from './niah-task.js';
import {
  listPublishedFiles,
  noOutputs,
  type PublishedFile,
  type ReadPublishedOptions,
  releaseFolderBeside,
  resolveEvaluationFolder,
} from './published-files.js';
import { loadCaseAlternatives, medicalGold } from './published-gold.js';
import {
  type CountingLine,
  countingLineSchema,
  medicalLineSchema,
  type NiahLine,
  niahLineSchema,
  readJsonLines,
} from './published-lines.js';
import { COUNTING_TYPE_NAMES } from './published-models.js';
import { loadNeedles } from './release.js';

export { loadCaseAlternatives } from './published-gold.js';

const MEDICAL_TASKS = { kg: kgTask, term: termTask, table: tableTask, case: caseTask } as const;

/** One published output, turned into a sample plus the model's answer. */
export interface ImportedResult {
  model: string;
  sample: Sample;
  /** The prompt when the file holds it (Counting); the other files hold only the question. */
  hasPrompt: boolean;
  rawOutput: string | null;
  status: SampleStatus;
  parsed: unknown;
  /** Compat-mode scores, plus `own.<metric>` where medbench's own rules give another value. */
  scores: Record<string, number>;
  promptChars: number | null;
  /** The prompt's tokens under the model's own tokenizer, as the file records them. */
  promptTokens: number | null;
}

/** What one file gave: shown per file by the import command. */
export interface PublishedFileSummary {
  name: string;
  model: string;
  language: Language;
  task: string;
  /** The context setting of Counting files ("medical MIC", "generic MIC", "medical per-model maximum"). */
  setting: string | null;
  outputs: number;
  statuses: Record<'ok' | 'bad_format' | 'too_long', number>;
  /** Samples of the published grid this file has no output for (ids, or NIAH needle/level/depth keys). */
  expected: number;
  missing: string[];
  /** Lines where medbench's parse disagrees with the published pred_answer or format note. */
  parserDisagreements: Array<{ line: number; detail: string }>;
}

const sameJson = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);

/**
 * Re-scores one published output with medbench's parser and metrics: compat mode (the
 * published scorer's rules) for the stored scores, and medbench's own rules beside them
 * where they differ. A "too long" note means the sample was never sent.
 */
function rescore(task: Task, sample: Sample, note: string, rawOutput: string | null) {
  if (note === 'too long') {
    return { status: 'too_long' as const, rawOutput: null, parsed: null, scores: task.failedScores(sample) };
  }
  const output = rawOutput ?? '';
  const scoreIn = (mode: ScoringMode) => task.score({ sample, rawOutput: output, mode });
  const compat = scoreIn('compat');
  const own = scoreIn('standard');
  const scores: Record<string, number> = { ...compat.scores };
  for (const [metric, value] of Object.entries(own.scores)) {
    if (value !== compat.scores[metric]) scores[`${OWN_SCORE_PREFIX}${metric}`] = value;
  }
  return { status: compat.status, rawOutput: output, parsed: compat.parsed, scores };
}

function countingSetting(kind: Extract<PublishedFile['kind'], { task: 'counting' }>): string {
  return kind.mic === 'per-model' ? `${kind.haystack} per-model maximum` : `${kind.haystack} MIC`;
}

interface Reader {
  file: PublishedFile;
  summary: PublishedFileSummary;
  results: ImportedResult[];
  seen: Map<string, number>;
}

function remember(reader: Reader, key: string, line: number): void {
  const earlier = reader.seen.get(key);
  if (earlier !== undefined) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${reader.file.path}:${line}: repeats sample ${key} of line ${earlier}.`,
      hint: 'Each sample has one output per file: delete one of the two lines and import again; nothing was imported.',
    });
  }
  reader.seen.set(key, line);
}

function checkModel(reader: Reader, line: number, model: string): void {
  if (model !== reader.file.model) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${reader.file.path}:${line}: field "model" is "${model}", but the file name says "${reader.file.model}".`,
      hint: "Each file holds one model's outputs, named <task>_<model>_v1.jsonl: move the line to its own file, or fix the field; nothing was imported.",
    });
  }
}

function record(
  reader: Reader,
  line: number,
  options: {
    task: Task;
    sample: Sample;
    note: string;
    predOrigin: string | null;
    predAnswer: unknown;
    hasPrompt: boolean;
    promptChars: number | null;
    promptTokens: number | null;
  },
): void {
  const scored = rescore(options.task, options.sample, options.note, options.predOrigin);
  reader.results.push({
    model: reader.file.model,
    sample: options.sample,
    hasPrompt: options.hasPrompt,
    rawOutput: scored.rawOutput,
    status: scored.status,
    parsed: scored.parsed,
    scores: scored.scores,
    promptChars: options.promptChars,
    promptTokens: options.promptTokens,
  });
  reader.summary.outputs++;
  reader.summary.statuses[scored.status as 'ok' | 'bad_format' | 'too_long']++;
  if (scored.status === 'too_long') return;
  const theirs = options.note === 'wrong format' ? 'bad_format' : 'ok';
  if (scored.status !== theirs) {
    reader.summary.parserDisagreements.push({
      line,
      detail: `medbench: ${scored.status}, published note: "${options.note}"`,
    });
  } else if (scored.status === 'ok' && !sameJson(scored.parsed, options.predAnswer)) {
    reader.summary.parserDisagreements.push({ line, detail: 'parsed answers differ' });
  }
}

function readNiah(
  reader: Reader,
  answersFor: (line: NiahLine, lineNumber: number, path: string) => string[],
): void {
  const { file } = reader;
  for (const { line, value } of readJsonLines(file.path, niahLineSchema)) {
    checkModel(reader, line, value.model);
    const level = value['length(origin)'];
    const depth = value['position(%)'];
    const key = `n${value.idx}/${levelName(level)}/d${depth}`;
    remember(reader, key, line);
    const params: SampleParams = {
      language: file.language,
      level,
      depth,
      needleId: value.idx,
      needleType: value.type,
      mic: 'ratio',
      haystack: 'medical',
    };
    record(reader, line, {
      task: niahTask,
      sample: {
        id: `niah-${file.language}-${levelName(level)}-d${depth}-n${value.idx}`,
        suite: 'medodyssey',
        task: 'niah',
        params,
        prompt: '',
        promptChars: value['length(string)'] ?? 0,
        promptTokens: {},
        gold: { answers: answersFor(value, line, file.path) },
      },
      note: value.note,
      predOrigin: value.pred_origin,
      predAnswer: value.pred_answer,
      hasPrompt: false,
      promptChars: value['length(string)'] ?? null,
      promptTokens: value['length(tokens)'] ?? null,
    });
  }
  const levels = new Set(reader.results.map((result) => result.sample.params.level));
  reader.summary.expected = file.expected;
  if (reader.summary.outputs < file.expected) {
    reader.summary.missing = [
      `${file.expected - reader.summary.outputs} of the ${file.expected} needle × length × depth samples (levels present: ${[...levels].map((level) => levelName(Number(level))).join(', ')})`,
    ];
  }
}

function readCounting(reader: Reader, kind: Extract<PublishedFile['kind'], { task: 'counting' }>): void {
  const { file } = reader;
  const suffix = kind.haystack === 'generic' ? '-generic' : kind.mic === 'per-model' ? '-max' : '';
  for (const { line, value } of readJsonLines(file.path, countingLineSchema)) {
    checkModel(reader, line, value.model);
    const type = COUNTING_TYPE_NAMES[value.type];
    if (!type) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${file.path}:${line}: field "type": expected one of ${Object.keys(COUNTING_TYPE_NAMES).join(', ')}; found the string ${JSON.stringify(value.type)}.`,
        hint: 'Correct or delete that line and import again; nothing was imported.',
      });
    }
    remember(reader, String(value.id), line);
    record(reader, line, {
      task: countingTask,
      sample: countingSample(file.language, value, type, kind, suffix),
      note: value.note,
      predOrigin: value.pred_origin,
      predAnswer: value.pred_answer,
      hasPrompt: true,
      promptChars: codePointLength(value.input),
      promptTokens: value.token_len ?? null,
    });
  }
  missingIds(reader);
}

function countingSample(
  language: Language,
  value: CountingLine,
  type: CountingType,
  kind: Extract<PublishedFile['kind'], { task: 'counting' }>,
  suffix: string,
): Sample {
  return {
    id: `counting-${language}-${levelName(value.sample_size)}-${type}${suffix}`,
    suite: 'medodyssey',
    task: 'counting',
    params: {
      language,
      level: value.sample_size,
      countingType: type,
      countingId: value.id,
      sentences: value.true_answer.length,
      mic: kind.mic,
      haystack: kind.haystack,
    },
    prompt: value.input,
    promptChars: codePointLength(value.input),
    promptTokens: {},
    gold: { counts: value.true_answer },
  };
}

function readMedical(
  reader: Reader,
  task: keyof typeof MEDICAL_TASKS,
  alternatives: () => Record<string, string[][]>,
): void {
  const { file } = reader;
  for (const { line, value } of readJsonLines(file.path, medicalLineSchema)) {
    checkModel(reader, line, value.model);
    remember(reader, String(value.id), line);
    const listed = task === 'case' ? alternatives()[String(value.id)] : undefined;
    record(reader, line, {
      task: MEDICAL_TASKS[task],
      sample: {
        id: `${task}-${file.language}-${levelName(value.sample_size)}-${value.id}`,
        suite: 'medodyssey',
        task,
        params: {
          language: file.language,
          level: value.sample_size,
          subtype: value.type,
          questionId: value.id,
          mic: 'ratio',
        },
        prompt: '',
        promptChars: 0,
        promptTokens: {},
        gold: medicalGold(task, value, listed),
        meta: { question: value.input },
      },
      note: value.note,
      predOrigin: value.pred_origin,
      predAnswer: value.pred_answer,
      hasPrompt: false,
      promptChars: null,
      promptTokens: value.token_len ?? null,
    });
  }
  missingIds(reader);
}

/** Ids 0 … expected−1 without an output in the file. */
function missingIds(reader: Reader): void {
  reader.summary.expected = reader.file.expected;
  for (let id = 0; id < reader.file.expected; id++) {
    if (!reader.seen.has(String(id))) reader.summary.missing.push(String(id));
  }
}

/**
 * Reads every published output file of the release (NIAH, Counting with both haystacks, KG,
 * Term, Table, Case) and re-scores each output with medbench's parser and metrics. NIAH
 * answers are checked against every accepted answer of the needles file (by `idx`), as the
 * published scorer did; without the needles file, against the line's own `true_answer`.
 */
export function readPublishedOutputs(options: ReadPublishedOptions): {
  evaluationFolder: string;
  results: ImportedResult[];
  files: PublishedFileSummary[];
  unknownFiles: string[];
} {
  const evaluationFolder = resolveEvaluationFolder(options.folder);
  const datasetFolder = options.datasetFolder ?? releaseFolderBeside(evaluationFolder);
  const { files, unknown } = listPublishedFiles(evaluationFolder);
  if (files.length === 0) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No published output files in ${evaluationFolder}.`,
      hint: 'Expected niah_result/{en|zh}_<model>_v1.jsonl, task_result/<lang>_<task>_<model>_v1.jsonl (counting, kg, norm, table, medcase) or counting_compare_result/<lang>_counting_general_<model>_v1.jsonl.',
    });
  }
  const needles = new Map<Language, Map<number, string[]> | null>();
  const answersFor = (language: Language) => (line: NiahLine, lineNumber: number, path: string) => {
    if (!needles.has(language)) {
      const path = join(datasetFolder, 'task_data', 'needles', `${language}_pure_needles.json`);
      needles.set(
        language,
        existsSync(path)
          ? new Map(loadNeedles(datasetFolder, language).map((needle) => [needle.id, needle.ground_truth]))
          : null,
      );
    }
    const known = needles.get(language);
    if (known === null || known === undefined) {
      const own = line.true_answer;
      return typeof own === 'string' ? [own] : (own ?? []);
    }
    const answers = known.get(line.idx);
    if (!answers) {
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${path}:${lineNumber}: field "idx": needle ${line.idx} is not in the ${language} needles file.`,
        hint: 'Import the outputs together with the release they were made from (its task_data/needles/).',
      });
    }
    return answers;
  };
  let alternatives: Record<string, string[][]> | undefined;
  const caseAlternativesFile = () => {
    alternatives ??= loadCaseAlternatives(datasetFolder);
    return alternatives;
  };
  const results: ImportedResult[] = [];
  const summaries: PublishedFileSummary[] = [];
  for (const [index, file] of files.entries()) {
    options.onFile?.(file.name, index, files.length);
    const reader: Reader = {
      file,
      results: [],
      seen: new Map(),
      summary: {
        name: file.name,
        model: file.model,
        language: file.language,
        task: file.kind.task,
        setting: file.kind.task === 'counting' ? countingSetting(file.kind) : null,
        outputs: 0,
        statuses: { ok: 0, bad_format: 0, too_long: 0 },
        expected: file.expected,
        missing: [],
        parserDisagreements: [],
      },
    };
    const kind = file.kind;
    if (kind.task === 'niah') readNiah(reader, answersFor(file.language));
    else if (kind.task === 'counting') readCounting(reader, kind);
    else readMedical(reader, kind.task, caseAlternativesFile);
    results.push(...reader.results);
    summaries.push(reader.summary);
  }
  if (results.length === 0) throw noOutputs(evaluationFolder, files);
  return { evaluationFolder, results, files: summaries, unknownFiles: unknown };
}
