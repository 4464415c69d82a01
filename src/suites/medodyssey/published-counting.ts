import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import { codePointLength } from '../../tokenizers/code-point-text.js';
import { type CountingType, type Language, levelName } from './constants.js';
import { listPublishedFiles, resolveEvaluationFolder } from './published-files.js';
import { countingLineSchema, readJsonLines } from './published-lines.js';
import { COUNTING_TYPE_NAMES } from './published-models.js';
import type { HaystackKind } from './release.js';

/**
 * The published Counting samples themselves, taken from the `input` of the authors' outputs
 * (each line carries the whole prompt): the medical haystack from task_result/, the generic
 * one from counting_compare_result/. Every model's file must hold the same prompt for an id.
 */
export function publishedCountingSamples(options: {
  folder: string;
  language: Language;
  haystack: HaystackKind;
  levels: readonly number[];
  countingTypes: readonly CountingType[];
  tokenizers: readonly Tokenizer[];
}): Sample[] {
  const evaluation = resolveEvaluationFolder(options.folder);
  const files = listPublishedFiles(evaluation).files.filter(
    (file) =>
      file.kind.task === 'counting' &&
      file.kind.haystack === options.haystack &&
      file.kind.mic === 'ratio' &&
      file.language === options.language,
  );
  if (files.length === 0) {
    throw new MedbenchError({
      code: 'DATA_NOT_FOUND',
      message: `No published ${options.language} Counting outputs with the ${options.haystack} haystack in ${evaluation}.`,
      hint: 'The release publishes zh Counting only (task_result/ for the medical haystack, counting_compare_result/ for the generic one): use --lang zh, or build without --counting-from-published.',
    });
  }
  const byId = new Map<
    number,
    { line: ReturnType<typeof readJsonLines<typeof countingLineSchema>>[number]['value']; where: string }
  >();
  for (const file of files) {
    for (const { line, value } of readJsonLines(file.path, countingLineSchema)) {
      const known = byId.get(value.id);
      if (!known) byId.set(value.id, { line: value, where: `${file.path}:${line}` });
      else if (
        known.line.input !== value.input ||
        JSON.stringify(known.line.true_answer) !== JSON.stringify(value.true_answer)
      ) {
        throw new MedbenchError({
          code: 'DATA_INVALID',
          message: `${file.path}:${line}: Counting id ${value.id} differs from ${known.where}; every model was given the same prompt.`,
          hint: 'Use an unmodified release.',
        });
      }
    }
  }
  const samples: Sample[] = [];
  for (const [id, { line }] of [...byId].sort(([left], [right]) => left - right)) {
    const type = COUNTING_TYPE_NAMES[line.type];
    if (!type || !options.countingTypes.includes(type) || !options.levels.includes(line.sample_size))
      continue;
    samples.push({
      id: `counting-${options.language}-${levelName(line.sample_size)}-${type}${options.haystack === 'generic' ? '-generic' : ''}`,
      suite: 'medodyssey',
      task: 'counting',
      params: {
        language: options.language,
        level: line.sample_size,
        countingType: type,
        countingId: id,
        sentences: line.true_answer.length,
        mic: 'ratio',
        haystack: options.haystack,
      },
      prompt: line.input,
      promptChars: codePointLength(line.input),
      promptTokens: Object.fromEntries(
        options.tokenizers.map((tokenizer) => [tokenizer.name, tokenizer.count(line.input)]),
      ),
      gold: { counts: line.true_answer },
      meta: { draws: 'published prompt' },
    });
  }
  return samples;
}
