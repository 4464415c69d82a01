import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import { CodePointText, codePointLength } from '../../tokenizers/code-point-text.js';
import { CorpusTokenIndex } from '../../tokenizers/corpus-token-index.js';
import { joinPromptParts, type PromptPart } from '../../tokenizers/prompt-parts.js';
import type { MicMode } from './build-samples.js';
import { ANSWER_RESERVE_CHARS, type Language, levelName } from './constants.js';
import { medicalPrompt, namedQuestion, type PromptTemplates } from './medical-prompts.js';
import type { MedicalSource } from './medical-sources.js';
import { fitGroups, fitOrFail, ratioCharBudget } from './mic.js';
import { SeededRandom } from './seeded-random.js';

export interface BuildMedicalOptions {
  sources: readonly MedicalSource[];
  levels: readonly number[];
  mic: MicMode;
  gamma: Record<Language, number>;
  tokenizers: readonly Tokenizer[];
  seed: string;
  /** The prompt templates (the release's prompt.json). */
  prompts: PromptTemplates;
}

function shuffle<T>(items: readonly T[], seed: string): T[] {
  const random = new SeededRandom(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.integer(0, index);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/** Largest value of the ascending `boundaries` that is at most `limit` (index and value). */
function boundaryAtMost(boundaries: readonly number[], limit: number): number {
  let low = 0;
  let high = boundaries.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (boundaries[middle]! <= limit) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Units are joined by the separator, none after the last (the authors' `'\n'.join`): every
 * stream range and inserted unit ends with a separator, so the last part loses its own.
 */
function dropTrailingSeparator(parts: PromptPart[], separator: string): void {
  const length = codePointLength(separator);
  const last = parts.at(-1);
  if (parts.length <= 1 || last === undefined) return;
  if (typeof last === 'string') parts[parts.length - 1] = last.slice(0, last.length - separator.length);
  else if (last.end - length > last.start)
    parts[parts.length - 1] = { start: last.start, end: last.end - length };
  else parts.pop();
}

/** A source's seeded stream of knowledge units: every unit followed by the separator. */
function unitStream(source: MedicalSource, options: BuildMedicalOptions) {
  const probe = medicalPrompt(options.prompts, source.task, source.language, '');
  const order = shuffle(
    source.units.map((_, index) => index),
    `${options.seed}/${source.task}/${source.language}/order`,
  );
  // boundaries[j] = where stream unit j starts.
  const boundaries: number[] = [0];
  const positionOf = new Map<number, number>();
  order.forEach((unit, position) => {
    positionOf.set(unit, position);
    boundaries.push(
      boundaries[position]! + codePointLength(source.units[unit]!) + codePointLength(probe.separator),
    );
  });
  const corpus = new CodePointText(order.map((unit) => source.units[unit]! + probe.separator).join(''));
  const indexes = new Map<string, CorpusTokenIndex>();
  const indexFor = (tokenizer: Tokenizer) => {
    let index = indexes.get(tokenizer.name);
    if (!index) {
      index = new CorpusTokenIndex({ corpus, tokenizer, limit: corpus.length });
      indexes.set(tokenizer.name, index);
    }
    return index;
  };
  return { boundaries, positionOf, corpus, indexFor };
}

type UnitStream = ReturnType<typeof unitStream>;

/** One question's prompt parts for a context prefix, with its answer units moved to even spacing. */
function questionAssembler(
  stream: UnitStream,
  shape: { head: string; tail: string; separator: string },
  excluded: ReadonlyArray<{ start: number; end: number }>,
  answerTexts: readonly string[],
) {
  const { boundaries } = stream;
  const sortedExcluded = [...excluded].sort((left, right) => left.start - right.start);
  /** Prompt for a context prefix of `limit` stream characters, snapped down to a unit boundary. */
  return (limit: number): { parts: PromptPart[]; cut: number } => {
    const cut = boundaries[boundaryAtMost(boundaries, limit)]!;
    const inserts = answerTexts.map(
      (_, index) =>
        boundaries[boundaryAtMost(boundaries, Math.floor((cut * (index + 1)) / (answerTexts.length + 1)))]!,
    );
    const parts: PromptPart[] = [shape.head];
    let from = 0;
    const pushRange = (start: number, end: number) => {
      // The stream without this question's own answer units.
      let position = start;
      for (const range of sortedExcluded) {
        if (range.end <= position || range.start >= end) continue;
        if (range.start > position) parts.push({ start: position, end: range.start });
        position = Math.max(position, range.end);
      }
      if (position < end) parts.push({ start: position, end });
    };
    inserts.forEach((insert, index) => {
      pushRange(from, Math.max(from, insert));
      from = Math.max(from, insert);
      parts.push(answerTexts[index]!);
    });
    pushRange(from, cut);
    dropTrailingSeparator(parts, shape.separator);
    parts.push(shape.tail);
    return { parts, cut };
  };
}

/** ratio MIC: the characters of context the budget leaves beside the instruction, question and answers. */
function ratioLimit(
  options: BuildMedicalOptions,
  source: MedicalSource,
  level: number,
  questionId: string,
  fixedChars: number,
): number {
  const limit = ratioCharBudget(level, options.gamma[source.language]) - fixedChars - ANSWER_RESERVE_CHARS;
  if (limit < 0) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `Level ${level} is too small for ${questionId}: its instruction, question and answer units alone exceed the budget.`,
      hint: 'Choose larger levels (--levels).',
    });
  }
  return limit;
}

/** The samples of one question at one level: one, or one per tokenizer (per-model MIC). */
function* questionSamples(
  options: BuildMedicalOptions,
  source: MedicalSource,
  stream: UnitStream,
  level: number,
  question: MedicalSource['questions'][number],
): Generator<Sample> {
  const asked =
    source.task === 'table' || source.task === 'case'
      ? namedQuestion(source.task, source.language, question.name, question.question)
      : question.question;
  const shape = medicalPrompt(options.prompts, source.task, source.language, asked);
  const answers = shuffle(question.answerUnits, `${options.seed}/${question.id}/answers`);
  const excluded = answers.map((unit) => {
    const position = stream.positionOf.get(unit)!;
    return { start: stream.boundaries[position]!, end: stream.boundaries[position + 1]! };
  });
  const answerTexts = answers.map((unit) => source.units[unit]! + shape.separator);
  const assemble = questionAssembler(stream, shape, excluded, answerTexts);
  for (const group of fitGroups(options.mic, options.tokenizers)) {
    const limit =
      options.mic === 'ratio'
        ? ratioLimit(
            options,
            source,
            level,
            question.id,
            codePointLength(shape.head) +
              codePointLength(shape.tail) +
              answerTexts.reduce((sum, text) => sum + codePointLength(text), 0),
          )
        : fitOrFail({
            indexes: group.tokenizers.map(stream.indexFor),
            assemble: (chars) => assemble(chars).parts,
            limit: level,
            maxHaystackChars: stream.corpus.length,
            sampleId: question.id,
          }).haystackChars;
    const { parts, cut } = assemble(limit);
    const prompt = joinPromptParts(stream.corpus, parts);
    const promptTokens = Object.fromEntries(
      options.tokenizers.map((tokenizer) => [tokenizer.name, tokenizer.count(prompt)]),
    );
    if (
      options.mic !== 'ratio' &&
      group.tokenizers.some((tokenizer) => promptTokens[tokenizer.name]! > level)
    ) {
      throw new Error(`internal: fitted prompt ${question.id} exceeds ${level} tokens`);
    }
    yield {
      id: `${source.task}-${source.language}-${levelName(level)}-${question.id.split('-').at(-1)}${group.suffix}`,
      suite: 'medodyssey',
      task: source.task,
      params: {
        language: source.language,
        level,
        subtype: question.subtype,
        questionId: question.id,
        mic: options.mic,
        ...(group.fitFor ? { fitFor: group.fitFor } : {}),
      },
      prompt,
      promptChars: codePointLength(prompt),
      promptTokens,
      gold: question.gold,
      meta: {
        question: asked,
        // Where the context is (UTF-16 offsets): `run --closed-book` asks the question without it.
        context: { start: shape.head.length, end: prompt.length - shape.tail.length },
        contextUnits:
          boundaryAtMost(stream.boundaries, cut) -
          excluded.filter((range) => range.end <= cut).length +
          answers.length,
        answerOffsets: answers.map((unit) => prompt.indexOf(source.units[unit]!)),
      },
    };
  }
}

/**
 * Builds KG, Term, Table and Case samples: each question's context is a prefix of the
 * task's seeded stream of knowledge units (cut only between units) with the question's own
 * answer units taken out of the stream and inserted whole at evenly spaced unit boundaries,
 * so every answer unit is present exactly once and never cut. The prefix length follows the
 * MIC mode, as for NIAH. Every level uses the same questions.
 */
export function* buildMedicalSamples(options: BuildMedicalOptions): Generator<Sample> {
  for (const source of options.sources) {
    const stream = unitStream(source, options);
    for (const level of options.levels)
      for (const question of source.questions)
        yield* questionSamples(options, source, stream, level, question);
  }
}
