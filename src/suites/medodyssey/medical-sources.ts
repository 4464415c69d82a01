import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { MedbenchError } from '../../core/errors.js';
import { readTextFile } from '../../io/text-file.js';
import { MEDICAL_DATASETS } from './aggregate.js';
import type { Language } from './constants.js';
import { unitName } from './medical-prompts.js';
import { SeededRandom } from './seeded-random.js';

/** A question over knowledge units: which units hold its answer, and its gold data. */
export interface MedicalQuestion {
  id: string;
  question: string;
  subtype: string;
  /** Indexes into the source's units that must be in the context. */
  answerUnits: number[];
  gold: unknown;
  /** Table and Case: the name of the unit asked about, put before the question (`在表格“…”中，`). */
  name?: string | undefined;
}

export interface MedicalSource {
  task: 'kg' | 'term' | 'table' | 'case';
  language: Language;
  units: string[];
  questions: MedicalQuestion[];
}

function fail(path: string, line: number | undefined, detail: string, hint?: string): never {
  throw new MedbenchError({
    code: 'DATA_INVALID',
    message: `${path}${line ? `:${line}` : ''}: ${detail}`,
    ...(hint ? { hint } : {}),
  });
}

function readLines(path: string): Array<{ text: string; line: number }> {
  if (!existsSync(path))
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `Source file not found: ${path}` });
  const lines = readTextFile(path)
    .split('\n')
    .map((text, index) => ({ text: text.replace(/\r$/, ''), line: index + 1 }))
    .filter(({ text }) => text.trim() !== '');
  if (lines.length === 0)
    fail(
      path,
      undefined,
      'the file holds no lines',
      'Each source file holds one item per line (docs/formats.md).',
    );
  return lines;
}

const KG_TEMPLATES: Record<
  Language,
  Record<'head2tail' | 'head2relation' | 'relation2head', (h: string, r: string, t: string) => string>
> = {
  en: {
    head2tail: (head, relation) => `What is the ${relation} of '${head}'?`,
    head2relation: (head, _relation, tail) => `What is the relationship between '${head}' and '${tail}'?`,
    relation2head: (_head, relation, tail) => `Which entities have '${tail}' as their ${relation}?`,
  },
  zh: {
    head2tail: (head, relation) => `${head}的${relation}是什么？`,
    head2relation: (head, _relation, tail) => `${head}和${tail}之间是什么关系？`,
    relation2head: (_head, relation, tail) => `哪些实体的${relation}是${tail}？`,
  },
};

/**
 * KG: a file of `head|relation|tail` lines (exactly two "|"). Questions come from templates
 * of three patterns around seeded triplets; the gold is every triplet of the source that
 * answers the question (all of them are put in the context).
 */
export function loadKgSource(options: {
  path: string;
  language: Language;
  questions: number;
  seed: string;
}): MedicalSource {
  const triplets = readLines(options.path).map(({ text, line }) => {
    const fields = text.split('|');
    if (fields.length !== 3 || fields.some((field) => field.trim() === '')) {
      fail(
        options.path,
        line,
        `"${text.slice(0, 80)}" is not head|relation|tail`,
        'One triplet per line, exactly two "|" separators.',
      );
    }
    return {
      text: text.trim(),
      head: fields[0]!.trim(),
      relation: fields[1]!.trim(),
      tail: fields[2]!.trim(),
    };
  });
  const random = new SeededRandom(`${options.seed}/kg/${options.language}`);
  const patterns = ['head2tail', 'head2relation', 'relation2head'] as const;
  const questions: MedicalQuestion[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; questions.length < options.questions && attempt < options.questions * 50; attempt++) {
    const seedTriplet = triplets[random.integer(0, triplets.length - 1)]!;
    const pattern = patterns[attempt % 3]!;
    const matches = (triplet: (typeof triplets)[number]) =>
      pattern === 'head2tail'
        ? triplet.head === seedTriplet.head && triplet.relation === seedTriplet.relation
        : pattern === 'head2relation'
          ? triplet.head === seedTriplet.head && triplet.tail === seedTriplet.tail
          : triplet.relation === seedTriplet.relation && triplet.tail === seedTriplet.tail;
    const question = KG_TEMPLATES[options.language][pattern](
      seedTriplet.head,
      seedTriplet.relation,
      seedTriplet.tail,
    );
    if (seen.has(question)) continue;
    seen.add(question);
    const answerUnits = triplets.flatMap((triplet, index) => (matches(triplet) ? [index] : []));
    questions.push({
      id: `kg-${options.language}-q${questions.length}`,
      question,
      subtype: pattern,
      answerUnits,
      gold: { triplets: answerUnits.map((index) => triplets[index]!.text) },
    });
  }
  return {
    task: 'kg',
    language: options.language,
    units: triplets.map((triplet) => triplet.text),
    questions,
  };
}

/**
 * Term: a termbase (one standard term per line, or `category<TAB>term` to group terms) and
 * mention<TAB>standard-term pairs.
 */
export function loadTermSource(options: {
  termbase: string;
  mentions: string;
  language: Language;
}): MedicalSource {
  const categories = new Map<string, string>();
  const terms = readLines(options.termbase).map(({ text, line }) => {
    const fields = text.split('\t');
    if (fields.length > 2 || fields.some((field) => field.trim() === '')) {
      fail(options.termbase, line, 'expected a standard term, or category<TAB>standard term');
    }
    const term = fields.at(-1)!.trim();
    if (fields.length === 2) categories.set(term, fields[0]!.trim());
    return term;
  });
  const units = [...new Set(terms)];
  const index = new Map(units.map((term, position) => [term, position]));
  const questions = readLines(options.mentions).map(({ text, line }, position) => {
    const [mention, term, extra] = text.split('\t');
    if (!mention?.trim() || !term?.trim() || extra !== undefined)
      fail(options.mentions, line, 'expected mention<TAB>standard term');
    const unit = index.get(term.trim());
    if (unit === undefined)
      fail(
        options.mentions,
        line,
        `the standard term "${term.trim()}" is not in the termbase ${options.termbase}`,
      );
    return {
      id: `term-${options.language}-q${position}`,
      question: mention.trim(),
      subtype: categories.get(term.trim()) ?? 'mention',
      answerUnits: [unit],
      gold: { answer: term.trim() },
    };
  });
  return { task: 'term', language: options.language, units, questions };
}

/** Table: markdown tables separated by blank lines; questions as JSONL { table, question, answers }. */
export function loadTableSource(options: {
  tables: string;
  questions: string;
  language: Language;
}): MedicalSource {
  if (!existsSync(options.tables))
    throw new MedbenchError({ code: 'DATA_NOT_FOUND', message: `Source file not found: ${options.tables}` });
  // Blocks separated by blank lines, each remembering the line it starts on.
  const blocks: Array<{ text: string; line: number }> = [];
  let current: string[] = [];
  let startLine = 0;
  readTextFile(options.tables)
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') {
        if (current.length > 0) blocks.push({ text: current.join('\n').trim(), line: startLine });
        current = [];
        return;
      }
      if (current.length === 0) startLine = index + 1;
      current.push(text.replace(/\r$/, ''));
    });
  if (current.length > 0) blocks.push({ text: current.join('\n').trim(), line: startLine });
  for (const block of blocks) {
    const rows = block.text.split('\n').filter((row) => row.trim().startsWith('|'));
    if (rows.length < 2 || !/^\|?\s*:?-{3,}/.test(rows[1]!.trim())) {
      fail(
        options.tables,
        block.line,
        'not a markdown table (a header row and a |---| separator row are needed)',
      );
    }
  }
  const schema = z.object({
    table: z.number().int().nonnegative(),
    question: z.string().min(1),
    answers: z.array(z.string().min(1)).min(1),
    name: z.string().min(1).optional(),
  });
  const questions = readLines(options.questions).map(({ text, line: number }, position) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      fail(options.questions, number, 'not valid JSON');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      fail(
        options.questions,
        number,
        `${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`,
      );
    if (parsed.data.table >= blocks.length)
      fail(options.questions, number, `table ${parsed.data.table} does not exist (${blocks.length} tables)`);
    return {
      id: `table-${options.language}-q${position}`,
      question: parsed.data.question,
      subtype: 'table',
      answerUnits: [parsed.data.table],
      gold: { answers: parsed.data.answers },
      name: parsed.data.name ?? unitName(blocks[parsed.data.table]!.text),
    };
  });
  return { task: 'table', language: options.language, units: blocks.map((block) => block.text), questions };
}

/** Case: JSONL of { text, questions: [{ question, answers, alternatives? }] }, one case per line. */
export function loadCaseSource(options: { path: string; language: Language }): MedicalSource {
  const schema = z.object({
    text: z.string().min(1),
    questions: z
      .array(
        z.object({
          question: z.string().min(1),
          answers: z.array(z.string()).min(1),
          alternatives: z.array(z.array(z.string()).min(1)).optional(),
          name: z.string().min(1).optional(),
        }),
      )
      .min(1),
  });
  const units: string[] = [];
  const questions: MedicalQuestion[] = [];
  for (const { text, line } of readLines(options.path)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      fail(options.path, line, 'not valid JSON');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      fail(
        options.path,
        line,
        `${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`,
      );
    const unit = units.length;
    units.push(parsed.data.text.trim());
    for (const item of parsed.data.questions) {
      questions.push({
        id: `case-${options.language}-q${questions.length}`,
        question: item.question,
        subtype: 'case',
        answerUnits: [unit],
        gold: { alternatives: [item.answers, ...(item.alternatives ?? [])] },
        name: item.name ?? unitName(parsed.data.text.trim()),
      });
    }
  }
  return { task: 'case', language: options.language, units, questions };
}

/** Source file names in a --sources folder, per task and language. */
export function medicalSourceFiles(
  folder: string,
  task: MedicalSource['task'],
  language: Language,
): Record<string, string> {
  const join = (name: string) => `${folder}/${name}`;
  switch (task) {
    case 'kg':
      return { triplets: join(`kg-triplets.${language}.txt`) };
    case 'term':
      return {
        termbase: join(`term-termbase.${language}.txt`),
        mentions: join(`term-mentions.${language}.tsv`),
      };
    case 'table':
      return {
        tables: join(`table-tables.${language}.md`),
        questions: join(`table-questions.${language}.jsonl`),
      };
    case 'case':
      return { cases: join(`case-cases.${language}.jsonl`) };
  }
}

/** Whether MedOdyssey has the dataset (it has Table and Case in zh only). */
function published(task: MedicalSource['task'], language: Language): boolean {
  return MEDICAL_DATASETS.some((dataset) => dataset.task === task && dataset.language === language);
}

/**
 * Loads every (task, language) whose source files are all present; lists the ones skipped, but
 * not a dataset MedOdyssey does not have (en Table and Case: built only when their files are
 * there). A task asked for whose files are absent in every language asked for is an error: it
 * cannot be built at all.
 */
export function loadMedicalSources(options: {
  folder: string;
  tasks: ReadonlyArray<MedicalSource['task']>;
  languages: readonly Language[];
  kgQuestions: number;
  seed: string;
}): { sources: MedicalSource[]; skipped: string[] } {
  if (!existsSync(options.folder) || !statSync(options.folder).isDirectory())
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `Knowledge sources folder not found: ${options.folder} (--sources).`,
      hint: 'Pass the folder holding the knowledge source files; docs/medodyssey-sources.md names them.',
    });
  const sources: MedicalSource[] = [];
  const skipped: string[] = [];
  for (const task of options.tasks) {
    const missingFiles: string[] = [];
    for (const language of options.languages) {
      const files = medicalSourceFiles(options.folder, task, language);
      const missing = Object.values(files).filter((path) => !existsSync(path));
      missingFiles.push(...missing);
      if (missing.length > 0) {
        if (published(task, language)) skipped.push(`${task} ${language} (missing ${missing.join(', ')})`);
        continue;
      }
      if (task === 'kg')
        sources.push(
          loadKgSource({
            path: files.triplets!,
            language,
            questions: options.kgQuestions,
            seed: options.seed,
          }),
        );
      else if (task === 'term')
        sources.push(loadTermSource({ termbase: files.termbase!, mentions: files.mentions!, language }));
      else if (task === 'table')
        sources.push(loadTableSource({ tables: files.tables!, questions: files.questions!, language }));
      else sources.push(loadCaseSource({ path: files.cases!, language }));
    }
    if (missingFiles.length > 0 && !sources.some((source) => source.task === task))
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `${task} cannot be built: ${options.folder} lacks ${missingFiles.map((path) => basename(path)).join(', ')}.`,
        hint: 'Add the files (docs/medodyssey-sources.md gives their formats), choose the languages that have them with --lang, or leave the task out of --task.',
      });
  }
  return { sources, skipped };
}
