import { MedbenchError } from '../../core/errors.js';
import type { Sample } from '../../core/sample.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import type { ClueBuildContext } from './build-clue-samples.js';
import { longHealthConversation } from './clue-conversation.js';
import type { LongHealthData, LongHealthQuestion } from './load-tasks.js';
import {
  CLUE_SYSTEM_PROMPTS,
  LONGHEALTH_BUDGET_SEPARATOR,
  LONGHEALTH_TEMPLATE,
  longHealthUser,
  NOT_IN_DOCUMENTS,
} from './protocol-prompts.js';
import type { ClueProtocol } from './protocols.js';
import { PythonRandom } from './python-random.js';

/**
 * Token lengths and cuts as the authors' script takes them with a Hugging Face tokenizer:
 * `len(tokenizer.encode(text))` counts the BOS that `encode` adds for some families, and
 * `tokenizer.decode(tokenizer.encode(doc)[:n])` keeps that BOS, as text, at the start of a cut.
 */
class ScriptTokens {
  private readonly ids = new Map<string, number[]>();
  private readonly bos: string | undefined;

  constructor(private readonly tokenizer: Tokenizer & Required<Pick<Tokenizer, 'encode' | 'decode'>>) {
    this.bos = tokenizer.huggingFaceBos;
  }

  private encode(text: string): number[] {
    let ids = this.ids.get(text);
    if (!ids) {
      ids = this.tokenizer.encode(text);
      this.ids.set(text, ids);
    }
    return ids;
  }

  length(text: string): number {
    return this.encode(text).length + (this.bos ? 1 : 0);
  }

  cut(text: string, tokens: number): string {
    if (tokens <= 0) return '';
    if (!this.bos) return this.tokenizer.decode(this.encode(text).slice(0, tokens));
    return `${this.bos}${this.tokenizer.decode(this.encode(text).slice(0, tokens - 1))}`;
  }
}

/** A tokenizer that can cut text at a token, or a clear error naming the ones medbench has. */
function scriptTokens(tokenizer: Tokenizer | undefined): ScriptTokens {
  if (!tokenizer?.encode || !tokenizer.decode) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `LongHealth cuts documents at the token budget with the target model's tokenizer, and ${
        tokenizer ? `"${tokenizer.name}" cannot encode and decode` : 'this model has none'
      }.`,
      hint: 'Give the model a tokenizer that can encode and decode (`medbench tokenizers` lists them; those marked "counts only" cannot).',
    });
  }
  return new ScriptTokens(tokenizer as Tokenizer & Required<Pick<Tokenizer, 'encode' | 'decode'>>);
}

const OPTION_LETTERS = 'abcdef';

function optionText(question: LongHealthQuestion, letter: string): string {
  return letter === 'f' ? NOT_IN_DOCUMENTS : question.options[letter as 'a']!;
}

/** The gold letter: the option containing the right answer's text (the last such, or the first). */
export function longHealthGold(
  question: LongHealthQuestion,
  labels: string,
  rule: ClueProtocol['longhealth']['goldOption'],
): string {
  const containing = [...labels].filter((letter) => optionText(question, letter).includes(question.correct));
  const letter = rule === 'last-containing' ? containing.at(-1) : containing[0];
  return (letter ?? '').toUpperCase();
}

/**
 * One prompt as `create_prompt` builds it: the answer documents while they fit the budget (the
 * first that does not is cut at it), then the other documents likewise, all shuffled together,
 * joined by a dashed separator. The budget counts the question, options, template and each
 * document plus a "NEW DOCUMENT" separator's tokens (which is not the separator it joins with).
 */
function longHealthPrompt(options: {
  question: LongHealthQuestion;
  answerDocuments: ReadonlyArray<readonly [string, string]>;
  otherDocuments: readonly string[];
  labels: string;
  maxLen: number;
  tokens: ScriptTokens;
  random: PythonRandom;
}): { user: string; documents: string[] } {
  const { tokens } = options;
  const optionLines = [...options.labels]
    .map((letter) => `${letter.toUpperCase()}: ${optionText(options.question, letter)}`)
    .join('\n');
  const separator = tokens.length(LONGHEALTH_BUDGET_SEPARATOR);
  let total =
    tokens.length(options.question.question) +
    tokens.length(optionLines) +
    tokens.length(LONGHEALTH_TEMPLATE);
  const selected: Array<{ text: string; type: string }> = [];
  const add = (documents: ReadonlyArray<readonly [string, string]>) => {
    for (const [type, text] of documents) {
      const length = tokens.length(text);
      if (total + length <= options.maxLen) {
        selected.push({ text, type });
        total += length + separator;
        continue;
      }
      selected.push({ text: tokens.cut(text, Math.max(options.maxLen - total, 0)), type });
      total = options.maxLen;
      return;
    }
  };
  add(options.answerDocuments);
  add(options.otherDocuments.map((text) => ['distraction', text] as const));
  options.random.shuffle(selected);
  return {
    user: longHealthUser(
      selected.map((document) => document.text),
      options.question.question,
      optionLines,
    ),
    documents: selected.map((document) => document.type),
  };
}

/** One LongHealth prompt as a sample: its conversation, gold option and generation limits. */
function longHealthSample(
  context: ClueBuildContext,
  item: {
    question: LongHealthQuestion;
    subtask: 1 | 2 | 3;
    repeat: number;
    built: { user: string; documents: string[] };
    labels: string;
    order: number;
  },
): Sample {
  const { protocol } = context;
  const { question, subtask, repeat, built, labels } = item;
  const rules = protocol.tasks.longhealth;
  const truncate =
    subtask === 1 && rules.truncate && context.contextWindow !== undefined
      ? rules.truncate(context.contextWindow)
      : undefined;
  const messages = longHealthConversation({
    protocol,
    model: context.model,
    system: CLUE_SYSTEM_PROMPTS.longhealth,
    user: built.user,
  });
  return {
    id: `longhealth/task${subtask}/${question.id}/${repeat}`,
    suite: 'clue',
    task: 'longhealth',
    params: {
      level: 2,
      protocol: protocol.name,
      subtask,
      question: question.id,
      repeat,
      options: labels.length,
      order: item.order,
    },
    prompt: built.user,
    messages,
    promptChars: messages.reduce((sum, message) => sum + message.content.length, 0),
    promptTokens: {},
    gold: {
      choice: subtask === 3 ? 'F' : longHealthGold(question, labels, protocol.longhealth.goldOption),
    },
    generation: {
      maxOutputTokens: rules.maxNewTokens,
      ...(truncate !== undefined ? { truncatePromptTokens: truncate } : {}),
    },
    meta: { documents: built.documents },
  };
}

/** A question's patient documents: those that hold the answer (with their ids), and the rest. */
function documentsOf(data: LongHealthData, question: LongHealthQuestion) {
  const texts = data.documents[question.patientId] ?? {};
  return {
    answer: Object.keys(question.answerLocations).map((id) => [id, texts[id]!] as const),
    rest: Object.entries(texts)
      .filter(([id]) => question.answerLocations[id] === undefined)
      .map(([, text]) => text),
  };
}

/**
 * LongHealth as `eval_LongHealth.py` builds it. Sub-task 1: five prompts per question, each
 * with the patient's answer documents and then its other documents, reshuffled. Sub-tasks 2
 * and 3: ten prompts per question, each with ten documents of other patients drawn anew; the
 * odd ones (task 2) add the answer documents, the even ones (task 3) do not and are right only
 * with option F, which both show. The authors' script never seeds Python's `random`; medbench
 * draws the same calls, in the same order, from one generator seeded with `seed`.
 */
export function buildLongHealth(
  data: LongHealthData,
  context: ClueBuildContext & { tokenizer: Tokenizer | undefined; seed: number },
): Sample[] {
  const { protocol } = context;
  const tokens = scriptTokens(context.tokenizer);
  const random = new PythonRandom(context.seed);
  const systemTokens = tokens.length(CLUE_SYSTEM_PROMPTS.longhealth);
  if (protocol.longhealth.distractorsFillWindow && context.contextWindow === undefined) {
    throw new MedbenchError({
      code: 'USAGE',
      message: `${protocol.name} fills LongHealth sub-tasks 2 and 3 up to the model's context window, which is not known.`,
      hint: 'Give it with --context-window <tokens> (or contextWindow in medbench.config.json).',
    });
  }
  const samples: Sample[] = [];
  const push = (
    question: LongHealthQuestion,
    subtask: 1 | 2 | 3,
    repeat: number,
    built: { user: string; documents: string[] },
    labels: string,
  ) =>
    samples.push(
      longHealthSample(context, { question, subtask, repeat, built, labels, order: samples.length }),
    );
  const ownDocuments = (question: LongHealthQuestion) => documentsOf(data, question);
  for (const question of data.questions) {
    const own = ownDocuments(question);
    for (let repeat = 0; repeat < 5; repeat++) {
      const built = longHealthPrompt({
        question,
        answerDocuments: own.answer,
        otherDocuments: own.rest,
        labels: 'abcde',
        maxLen: protocol.longhealth.maxLen - systemTokens,
        tokens,
        random,
      });
      push(question, 1, repeat, built, 'abcde');
    }
  }
  const patients = Object.keys(data.documents);
  const maxLen =
    (protocol.longhealth.distractorsFillWindow ? context.contextWindow! : protocol.longhealth.maxLen) -
    systemTokens;
  for (const question of data.questions) {
    const own = ownDocuments(question);
    const others = patients
      .filter((patient) => patient !== question.patientId)
      .flatMap((patient) => Object.values(data.documents[patient] ?? {}));
    for (let repeat = 0; repeat < 10; repeat++) {
      const distractors = random.sample(others, Math.min(10, others.length));
      const subtask = repeat % 2 === 0 ? 3 : 2;
      const built = longHealthPrompt({
        question,
        answerDocuments: subtask === 2 ? own.answer : [],
        otherDocuments: distractors,
        labels: OPTION_LETTERS,
        maxLen,
        tokens,
        random,
      });
      push(question, subtask, repeat, built, OPTION_LETTERS);
    }
  }
  return samples;
}
