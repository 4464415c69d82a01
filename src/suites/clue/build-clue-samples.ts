import type { Sample } from '../../core/sample.js';
import { type ClueModelKind, type ClueTurn, clueConversation } from './clue-conversation.js';
import type {
  ClueTaskName,
  MeDiSumCodeItem,
  MeDiSumQaItem,
  MedNliItem,
  ProblemSummaryItem,
} from './load-tasks.js';
import type { MeQSumItem } from './meqsum.js';
import {
  CLUE_SYSTEM_PROMPTS,
  medisumcodeUser,
  medisumqaUser,
  mednliUser,
  meqsumUser,
  problemSummaryUser,
} from './protocol-prompts.js';
import type { ClueProtocol } from './protocols.js';
import { PythonRandom } from './python-random.js';

export const LEVEL: Record<ClueTaskName, 1 | 2> = {
  mednli: 1,
  meqsum: 1,
  'problem-summary': 1,
  longhealth: 2,
  medisumqa: 2,
  medisumcode: 2,
};

/** What building a task's samples depends on: the protocol, and the model it will be sent to. */
export interface ClueBuildContext {
  protocol: ClueProtocol;
  model: ClueModelKind;
  /** The model's context window, for the protocol's truncation (none when unknown). */
  contextWindow: number | undefined;
}

interface Turn extends ClueTurn {
  id: string;
  gold: unknown;
  /** The task's input, which a baseline may use as its prediction. */
  input: string;
}

/** The items in the protocol's order: as in the file, or Python's `random.seed(1); random.shuffle`. */
export function protocolOrder<T>(items: readonly T[], order: 'file' | 'python-seed-1'): T[] {
  return order === 'python-seed-1' ? new PythonRandom(1).shuffle([...items]) : [...items];
}

/**
 * The samples of a few-shot task: items in the protocol's order, the first `shots` as the
 * examples (not scored), then one sample per remaining item, numbered in scoring order.
 */
function fewShotSamples(
  task: Exclude<ClueTaskName, 'longhealth'>,
  turns: readonly Turn[],
  context: ClueBuildContext,
): Sample[] {
  const rules = context.protocol.tasks[task];
  const ordered = protocolOrder(turns, rules.order);
  const shots = ordered.slice(0, rules.shots);
  const truncate =
    rules.truncate && context.contextWindow !== undefined ? rules.truncate(context.contextWindow) : undefined;
  return ordered.slice(rules.shots).map((turn, index) => {
    const messages = clueConversation({
      protocol: context.protocol,
      model: context.model,
      system: CLUE_SYSTEM_PROMPTS[task],
      shots,
      user: turn.user,
      prefill: rules.prefill,
    });
    return {
      id: `${task}/${turn.id}`,
      suite: 'clue',
      task,
      params: { level: LEVEL[task], protocol: context.protocol.name, order: index, shots: shots.length },
      prompt: turn.user,
      messages,
      promptChars: messages.reduce((sum, message) => sum + message.content.length, 0),
      promptTokens: {},
      gold: turn.gold,
      generation: {
        maxOutputTokens: rules.maxNewTokens,
        ...(truncate !== undefined ? { truncatePromptTokens: truncate } : {}),
      },
      meta: { input: turn.input, shotIds: shots.map((shot) => shot.id), prefill: rules.prefill },
    };
  });
}

export const buildMedNli = (items: readonly MedNliItem[], context: ClueBuildContext) =>
  fewShotSamples(
    'mednli',
    items.map((item) => ({
      id: item.id,
      user: mednliUser(item.premise, item.hypothesis),
      answer: `${context.protocol.tasks.mednli.answerStart}${item.label}`,
      gold: { label: item.label },
      input: '',
    })),
    context,
  );

export const buildMeQSum = (items: readonly MeQSumItem[], context: ClueBuildContext) =>
  fewShotSamples(
    'meqsum',
    items.map((item) => ({
      id: item.id,
      user: meqsumUser(item.question),
      answer: `${context.protocol.tasks.meqsum.answerStart}${item.summary}`,
      gold: { reference: item.summary },
      input: item.question,
    })),
    context,
  );

export const buildProblemSummary = (items: readonly ProblemSummaryItem[], context: ClueBuildContext) =>
  fewShotSamples(
    'problem-summary',
    items.map((item) => ({
      id: item.id,
      user: problemSummaryUser(item.subjective, item.assessment),
      answer: `${context.protocol.tasks['problem-summary'].answerStart}${item.summary}`,
      gold: { reference: item.summary },
      input: `${item.subjective}\n${item.assessment}`,
    })),
    context,
  );

/**
 * The discharge letter a protocol shows: paper-2024's template reads `without_discharge_summary`,
 * repo-2025's `discharge_summary`; a file with only one of them gives that one to both.
 */
export function medisumqaLetter(item: MeDiSumQaItem, protocol: ClueProtocol): string {
  return protocol.name === 'paper-2024'
    ? (item.withoutDischargeSummary ?? item.dischargeSummary)!
    : (item.dischargeSummary ?? item.withoutDischargeSummary)!;
}

export const buildMeDiSumQa = (items: readonly MeDiSumQaItem[], context: ClueBuildContext) =>
  fewShotSamples(
    'medisumqa',
    items.map((item) => {
      const letter = medisumqaLetter(item, context.protocol);
      return {
        id: item.id,
        user: medisumqaUser(letter, item.question, context.protocol.name === 'paper-2024'),
        answer: `${context.protocol.tasks.medisumqa.answerStart}${item.answer}`,
        gold: { reference: item.answer },
        input: letter,
      };
    }),
    context,
  );

export const buildMeDiSumCode = (items: readonly MeDiSumCodeItem[], context: ClueBuildContext) =>
  fewShotSamples(
    'medisumcode',
    items.map((item) => {
      const codes = item.codes.join(', ');
      return {
        id: item.id,
        user: medisumcodeUser(item.text),
        answer: `${context.protocol.tasks.medisumcode.answerStart}${codes}`,
        // The scripts compare against the joined list split again at ", ".
        gold: { codes: codes.split(', ') },
        input: item.text,
      };
    }),
    context,
  );
