import type { ChatMessage } from '../../core/chat-model.js';
import type { Sample } from '../../core/sample.js';
import type { Tokenizer } from '../../core/tokenizer.js';
import type {
  ClueTaskName,
  LongHealthData,
  MeDiSumCodeItem,
  MeDiSumQaItem,
  MedNliItem,
  ProblemSummaryItem,
} from './load-tasks.js';
import type { MeQSumItem } from './meqsum.js';
import {
  dischargeLetter,
  longHealthUser,
  medisumqaAnswer,
  medisumqaUser,
  mednliUser,
  meqsumAnswer,
  meqsumUser,
  NOT_IN_DOCUMENTS,
  problemSummaryUser,
  SYSTEM_PROMPTS,
} from './prompts.js';
import { type ShuffleMode, shuffled } from './shuffle.js';

/** Shots per level: 3 at level 1, 1 at level 2, none for LongHealth. */
export const SHOTS: Record<ClueTaskName, number> = {
  mednli: 3,
  meqsum: 3,
  'problem-summary': 3,
  longhealth: 0,
  medisumqa: 1,
  medisumcode: 1,
};
export const LEVEL: Record<ClueTaskName, 1 | 2> = {
  mednli: 1,
  meqsum: 1,
  'problem-summary': 1,
  longhealth: 2,
  medisumqa: 2,
  medisumcode: 2,
};

interface Turn {
  id: string;
  user: string;
  assistant: string;
  gold: unknown;
  /** Text a baseline may use as its prediction (the task's input). */
  input: string;
}

/** System prompt, the first `shots` turns as examples, then one sample per remaining turn. */
function fewShotSamples(task: ClueTaskName, turns: readonly Turn[], shuffle: ShuffleMode): Sample[] {
  const ordered = shuffled(turns, shuffle);
  const shots = ordered.slice(0, SHOTS[task]);
  const examples: ChatMessage[] = shots.flatMap((shot) => [
    { role: 'user' as const, content: shot.user },
    { role: 'assistant' as const, content: shot.assistant },
  ]);
  return ordered.slice(SHOTS[task]).map((turn) => ({
    id: `${task}/${turn.id}`,
    suite: 'clue',
    task,
    params: { level: LEVEL[task], shots: shots.length },
    prompt: turn.user,
    messages: [
      { role: 'system', content: SYSTEM_PROMPTS[task] },
      ...examples,
      { role: 'user', content: turn.user },
    ],
    promptChars: turn.user.length,
    promptTokens: {},
    gold: turn.gold,
    meta: { input: turn.input, shotIds: shots.map((shot) => shot.id) },
  }));
}

export const buildMedNli = (items: readonly MedNliItem[], shuffle: ShuffleMode) =>
  fewShotSamples(
    'mednli',
    items.map((item) => ({
      id: item.id,
      user: mednliUser(item.premise, item.hypothesis),
      assistant: item.label,
      gold: { label: item.label },
      input: '',
    })),
    shuffle,
  );

export const buildMeQSum = (items: readonly MeQSumItem[], shuffle: ShuffleMode) =>
  fewShotSamples(
    'meqsum',
    items.map((item) => ({
      id: item.id,
      user: meqsumUser(item.question),
      assistant: meqsumAnswer(item.summary),
      gold: { reference: item.summary },
      input: item.question,
    })),
    shuffle,
  );

export const buildProblemSummary = (items: readonly ProblemSummaryItem[], shuffle: ShuffleMode) =>
  fewShotSamples(
    'problem-summary',
    items.map((item) => ({
      id: item.id,
      user: problemSummaryUser(item.subjective, item.assessment),
      assistant: item.summary,
      gold: { reference: item.summary },
      input: `${item.subjective}\n${item.assessment}`,
    })),
    shuffle,
  );

export const buildMeDiSumQa = (items: readonly MeDiSumQaItem[], shuffle: ShuffleMode) =>
  fewShotSamples(
    'medisumqa',
    items.map((item) => ({
      id: item.id,
      user: medisumqaUser(item.dischargeSummary, item.question),
      assistant: medisumqaAnswer(item.answer),
      gold: { reference: item.answer },
      input: item.dischargeSummary,
    })),
    shuffle,
  );

export const buildMeDiSumCode = (items: readonly MeDiSumCodeItem[], shuffle: ShuffleMode) =>
  fewShotSamples(
    'medisumcode',
    items.map((item) => ({
      id: item.id,
      user: dischargeLetter(item.text),
      assistant: item.codes.join(', '),
      gold: { codes: item.codes },
      input: item.text,
    })),
    shuffle,
  );

/** The longest prefix of `text` with at most `tokens` tokens (binary search on characters). */
export function cutToTokens(text: string, tokens: number, tokenizer: Tokenizer): string {
  if (tokenizer.count(text) <= tokens) return text;
  let low = 0;
  let high = text.length;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (tokenizer.count(text.slice(0, middle)) <= tokens) low = middle;
    else high = middle;
  }
  return text.slice(0, low);
}

export interface LongHealthBudget {
  tokenizer: Tokenizer;
  /** Tokens the documents may take (the model's window minus room for instructions and answer). */
  documentTokens: number;
}

/**
 * LongHealth sub-tasks: 1 — the patient's documents; 2 — those plus other patients'
 * documents as distractors up to the token budget, in shuffled order; 3 — the documents
 * holding the answer removed (distractors added as in 2) and option F, the right answer.
 * What overflows the budget is cut at it. Where the answer documents start is recorded.
 */
export function buildLongHealth(
  data: LongHealthData,
  shuffle: ShuffleMode,
  budget: LongHealthBudget | undefined,
): Sample[] {
  const samples: Sample[] = [];
  const patients = Object.keys(data.documents);
  for (const question of data.questions) {
    const own = data.documents[question.patientId] ?? {};
    const relevant = new Set(Object.keys(question.answerLocations));
    const others = shuffled(
      patients
        .filter((patient) => patient !== question.patientId)
        .flatMap((patient) => Object.values(data.documents[patient] ?? {})),
      { kind: 'seeded', seed: `${JSON.stringify(shuffle)}/${question.id}/distractors` },
    );
    for (const subtask of [1, 2, 3] as const) {
      const base = Object.entries(own).filter(([documentId]) => subtask !== 3 || !relevant.has(documentId));
      let documents = base.map(([documentId, text]) => ({ documentId, text }));
      if (subtask > 1 && budget) {
        let used = documents.reduce((sum, document) => sum + budget.tokenizer.count(document.text), 0);
        for (const [index, text] of others.entries()) {
          const cost = budget.tokenizer.count(text);
          if (used + cost > budget.documentTokens) break;
          documents.push({ documentId: `distractor-${index}`, text });
          used += cost;
        }
        documents = shuffled(documents, {
          kind: 'seeded',
          seed: `${JSON.stringify(shuffle)}/${question.id}/${subtask}`,
        });
      }
      let texts = documents.map((document) => document.text);
      if (budget) {
        const joined = cutToTokens(texts.join('\n\n'), budget.documentTokens, budget.tokenizer);
        texts = [joined];
      }
      const options: Record<string, string> = { ...question.options };
      if (subtask === 3) options.F = NOT_IN_DOCUMENTS;
      const user = longHealthUser(texts, question.question, options);
      const answerOffsets = documents
        .filter((document) => relevant.has(document.documentId))
        .map((document) => ({
          documentId: document.documentId,
          offset: user.indexOf(document.text.slice(0, 200)),
        }));
      samples.push({
        id: `longhealth/task${subtask}/${question.id}`,
        suite: 'clue',
        task: 'longhealth',
        params: { level: 2, subtask, options: Object.keys(options).length },
        prompt: user,
        messages: [
          { role: 'system', content: SYSTEM_PROMPTS.longhealth },
          { role: 'user', content: user },
        ],
        promptChars: user.length,
        promptTokens: {},
        gold: { choice: subtask === 3 ? 'F' : question.correct },
        meta: { answerOffsets, documents: documents.map((document) => document.documentId) },
      });
    }
  }
  return samples;
}
