import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import { codePointLength } from '../../tokenizers/code-point-text.js';
import type { Language } from './constants.js';
import { NIAH_INSTRUCTION, niahQuestion } from './prompts.js';

/**
 * The tasks a question can be asked of without its context: NIAH (the needle's question), KG,
 * Term, Table and Case (the question or mention). Counting is left out: its question is "count
 * what the context says", and without the context there is nothing it could be answered from.
 */
export const CLOSED_BOOK_TASKS: ReadonlySet<string> = new Set(['niah', 'kg', 'term', 'table', 'case']);

/** Where a medical sample's context sits in its prompt (UTF-16 offsets), as the build records it. */
export interface ContextSpan {
  start: number;
  end: number;
}

function invalid(sample: Sample, problem: string, hint: string): MedbenchError {
  return new MedbenchError({
    code: 'DATA_INVALID',
    message: `--closed-book: sample ${sample.id} (${sample.task}): ${problem}.`,
    hint,
  });
}

/** NIAH: the Figure B5 instruction (with its empty context header) followed by the question part. */
function niahClosedBook(sample: Sample): string {
  const language = sample.params.language as Language;
  const question = sample.meta?.question;
  const head = NIAH_INSTRUCTION[language];
  const tail = typeof question === 'string' ? niahQuestion(language, question) : undefined;
  if (
    head === undefined ||
    tail === undefined ||
    !sample.prompt.startsWith(head) ||
    !sample.prompt.endsWith(tail)
  )
    throw invalid(
      sample,
      'its prompt is not the Figure B5 instruction, a context and its question (meta.question)',
      'Use a dataset written by `medbench build medodyssey`.',
    );
  return head + tail;
}

/** KG, Term, Table, Case: the prompt with the span the build recorded as the context cut out. */
function medicalClosedBook(sample: Sample): string {
  const span = sample.meta?.context as Partial<ContextSpan> | undefined;
  const { start, end } = span ?? {};
  if (
    typeof start !== 'number' ||
    typeof end !== 'number' ||
    !Number.isInteger(start) ||
    !Number.isInteger(end) ||
    start < 0 ||
    end < start ||
    end > sample.prompt.length
  )
    throw invalid(
      sample,
      'the dataset does not say where its context is (meta.context, written by builds since --closed-book)',
      'Build the dataset again with `medbench build medodyssey` (same options: the prompts are the same).',
    );
  return sample.prompt.slice(0, start) + sample.prompt.slice(end);
}

/**
 * The sample asked without its context (`run --closed-book`): the same instruction, question and
 * answer format, the context between them removed (an empty context under its header). Its
 * prompt token counts are dropped, so the run counts the short prompt with the model's own
 * tokenizer (dry run, --max-cost, too_long). Undefined for a task with no closed-book form.
 */
export function closedBookSample(sample: Sample): Sample | undefined {
  if (!CLOSED_BOOK_TASKS.has(sample.task)) return undefined;
  const prompt = sample.task === 'niah' ? niahClosedBook(sample) : medicalClosedBook(sample);
  const { meta: _meta, ...rest } = sample;
  return { ...rest, prompt, promptChars: codePointLength(prompt), promptTokens: {} };
}
