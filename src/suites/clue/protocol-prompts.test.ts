import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeClueFixtures } from '../../../test/support/clue-fixtures.js';
import type { ChatMessage } from '../../core/chat-model.js';
import type { Sample } from '../../core/sample.js';
import { getTokenizer } from '../../tokenizers/registry.js';
import {
  buildMeDiSumCode,
  buildMeDiSumQa,
  buildMedNli,
  buildMeQSum,
  buildProblemSummary,
  type ClueBuildContext,
} from './build-clue-samples.js';
import {
  loadLongHealth,
  loadMeDiSumCode,
  loadMeDiSumQa,
  loadMedNli,
  loadMeQSum,
  loadProblemSummary,
} from './load-tasks.js';
import { buildLongHealth } from './longhealth.js';
import { CLUE_SYSTEM_PROMPTS } from './protocol-prompts.js';
import { CLUE_PROTOCOL, type ClueProtocolName } from './protocols.js';

/**
 * The exact messages the authors' scripts send for the first scored item of a small fixture in
 * each official format, written out by hand from reading eval/*.py at fdb4ec7 (paper-2024) and
 * 2de4314 (repo-2025). paper-2024 keeps file order (MeDiSumQA: random.seed(1) shuffle), repo-2025
 * shuffles every task with random.seed(1): for 6, 5 and 3 items Python gives [2, 3, 5, 0, 4, 1],
 * [2, 3, 4, 0, 1] and [1, 2, 0].
 */
const folder = mkdtempSync(join(tmpdir(), 'medbench-clue-prompts-'));
writeClueFixtures(folder);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const SYSTEM = {
  mednli:
    "You are a highly skilled assistant, specifically trained to assist medical professionals. You will recieve two sentences, labeled 'SENTENCE_1' and 'SENTENCE_2', respectively. Your task is to determine the logical relation between the two sentences. Valid answers are: ENTAILMENT, NEUTRAL or CONTRADICTION.",
  meqsum:
    'You are a highly skilled assistant, specifically trained to assist patients. Your primary responsibility will be to summarize patient inquiries as concise question. You will be given such a patient inquiry. You will be expected to summarize and rewrite the inquiry as a concise question. Only write out the question. Do not add any other text.',
  problemSummary:
    "You are a highly skilled and detail-oriented assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge letters from hospitals. You will receive an excerpt of such a discharge letter. Your task is to summarize the diagnoses and problems that led to the patient's hospitalization.",
  medisumqa:
    'You are a highly skilled assistant, specifically trained to assist lays in understanding and extracting key information from medical documents. Your primary responsibility will be to interprete discharge letters from hospitals. You will receive such a discharge letter. You should carefully review the contents and accurately answer questions related to this document. Only respond with the correct answer to the question. Answer briefly without mentioning a lot of specific details. If the question is about measurements (e.g., lab values), interpret their meaning in relation to the question, rather than writing down the values. Do not generate anything else.',
  medisumcode:
    'You are a highly skilled and detail-oriented assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge letters from hospitals. You will be given such a discharge letter. Your task is to identify all primary and secondary diagnoses from the report and list their respective ICD-10 codes.',
  longhealth:
    "\nYou are a highly skilled and detail-oriented assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge letters from hospitals. When you receive one or more of these letters, you will be expected to carefully review the contents and accurately answer multiple-choice questions related to these documents. \n\nYour answers should be:\n1. Accurate: Make sure your answers are based on the information provided in the letters.\n2. Concise: Provide brief and direct answers without unnecessary elaboration.\n3. Contextual: Consider the context and specifics of each question to provide the most relevant information.\n\nRemember, your job is to streamline the physician's decision-making process by providing them with accurate and relevant information from discharge summaries. Efficiency and reliability are key.\n",
};

const system = (content: string): ChatMessage => ({ role: 'system', content });
const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const nli = (index: number) => `\nSENTENCE_1: Premise ${index}.\nSENTENCE_2: Hypothesis ${index}.\n`;
const inquiry = (index: number) =>
  `--------------PATIENT INQUIRY--------------\nIs drug ${index} safe?\n--------------END PATIENT INQUIRY--------------`;
const note = (index: number) =>
  `--------------BEGIN DISCHARGE LETTER--------------\nPain, "severe" ${index}\n\nHypertension and diabetes\n--------------END DISCHARGE LETTER--------------\nNow respond with the list of diagnoses and patient problems. Do not generate anything else.`;
const letterQa = (index: number, labelled: boolean) =>
  `--------------BEGIN DISCHARGE LETTER--------------\nYou had pneumonia ${index}.\n--------------END DISCHARGE LETTER--------------\n${labelled ? 'Question: ' : ''}Why was I admitted?`;
const letterCodes = (index: number) =>
  `--------------BEGIN DISCHARGE LETTER--------------\nDischarge ${index}: pneumonia.\n--------------END DISCHARGE LETTER--------------\nNow return the list of diagnoses ICD-10 codes you found. Only list the ICD-10 codes. Do not generate anything else.`;

const EXPECTED: Record<ClueProtocolName, Record<string, ChatMessage[]>> = {
  'paper-2024': {
    mednli: [
      system(SYSTEM.mednli),
      user(nli(0)),
      assistant('entailment'),
      user(nli(1)),
      assistant('neutral'),
      user(nli(2)),
      assistant('contradiction'),
      user(nli(3)),
    ],
    meqsum: [
      system(SYSTEM.meqsum),
      user(inquiry(0)),
      assistant('Question: Is drug 0 safe?'),
      user(inquiry(1)),
      assistant('Question: Is drug 1 safe?'),
      user(inquiry(2)),
      assistant('Question: Is drug 2 safe?'),
      user(inquiry(3)),
      assistant('Question: '),
    ],
    'problem-summary': [
      system(SYSTEM.problemSummary),
      user(note(0)),
      assistant('Diagnoses/Patient problems: Hypertension, Diabetes'),
      user(note(1)),
      assistant('Diagnoses/Patient problems: Hypertension, Diabetes'),
      user(note(2)),
      assistant('Diagnoses/Patient problems: Hypertension, Diabetes'),
      user(note(3)),
      assistant('Diagnoses/Patient problems: '),
    ],
    medisumqa: [
      system(SYSTEM.medisumqa),
      user(letterQa(1, true)),
      assistant('Answer: You had pneumonia 1.'),
      user(letterQa(2, true)),
      assistant('Answer: '),
    ],
    medisumcode: [
      system(SYSTEM.medisumcode),
      user(letterCodes(0)),
      assistant('ICD-10 Codes: J189, E119'),
      user(letterCodes(1)),
      assistant('ICD-10 Codes: '),
    ],
  },
  'repo-2025': {
    mednli: [
      system(SYSTEM.mednli),
      user(nli(2)),
      assistant('contradiction'),
      user(nli(3)),
      assistant('entailment'),
      user(nli(5)),
      assistant('contradiction'),
      user(nli(0)),
    ],
    meqsum: [
      system(SYSTEM.meqsum),
      user(inquiry(2)),
      assistant('Is drug 2 safe?'),
      user(inquiry(3)),
      assistant('Is drug 3 safe?'),
      user(inquiry(4)),
      assistant('Is drug 4 safe?'),
      user(inquiry(0)),
    ],
    'problem-summary': [
      system(SYSTEM.problemSummary),
      user(note(2)),
      assistant('Hypertension, Diabetes'),
      user(note(3)),
      assistant('Hypertension, Diabetes'),
      user(note(4)),
      assistant('Hypertension, Diabetes'),
      user(note(0)),
    ],
    medisumqa: [
      system(SYSTEM.medisumqa),
      user(letterQa(1, false)),
      assistant('You had pneumonia 1.'),
      user(letterQa(2, false)),
    ],
    medisumcode: [
      system(SYSTEM.medisumcode),
      user(letterCodes(1)),
      assistant('ICD-10 Codes: J189, I10'),
      user(letterCodes(2)),
    ],
  },
};

/** LongHealth's first prompt: sub-task 1, patient p1, documents in Python's seed-1 order ([d2, d1]). */
const LONGHEALTH_USER = `
--------------BEGIN DOCUMENTS--------------

Patient p1 had a fever.

--------------

Patient p1 was treated with metformin.

--------------END DOCUMENTS--------------

Which drug did patient p1 receive?
A: Metformin
B: Insulin
C: Aspirin
D: Heparin
E: None

Please answer using the following format:
1. Begin your answer with the phrase "The correct answer is".
2. State the letter of the correct option (e.g., A, B, C, D, E).
3. Follow the letter with a colon and the exact text of the option you chose.
4. Make sure your answer is a single, concise sentence.

For example, if the correct answer to a question is option C, and the text for C is 'Acute Bronchitis', your answer should be: 
'The correct answer is C: Acute bronchitis.'
`;

const chatModel = { instruct: true, systemRole: true };

function firstOf(name: ClueProtocolName, model = chatModel): Record<string, Sample> {
  const context: ClueBuildContext = { protocol: CLUE_PROTOCOL[name], model, contextWindow: 8192 };
  return {
    mednli: buildMedNli(loadMedNli(join(folder, 'mli_test_v1.jsonl')), context)[0]!,
    meqsum: buildMeQSum(loadMeQSum(join(folder, 'MeQSum_fixture.xlsx')), context)[0]!,
    'problem-summary': buildProblemSummary(
      loadProblemSummary(join(folder, 'BioNLP2023-1A-Test.csv')),
      context,
    )[0]!,
    medisumqa: buildMeDiSumQa(loadMeDiSumQa(join(folder, 'MeDiSumQA.json')), context)[0]!,
    medisumcode: buildMeDiSumCode(loadMeDiSumCode(join(folder, 'MeDiSumCode.json')), context)[0]!,
  };
}

describe('CLUE prompts, character for character, per protocol', () => {
  it('the system prompts are the scripts’ own', () => {
    expect(CLUE_SYSTEM_PROMPTS).toEqual({
      mednli: SYSTEM.mednli,
      meqsum: SYSTEM.meqsum,
      'problem-summary': SYSTEM.problemSummary,
      medisumqa: SYSTEM.medisumqa,
      medisumcode: SYSTEM.medisumcode,
      longhealth: SYSTEM.longhealth,
    });
  });

  for (const name of ['paper-2024', 'repo-2025'] as const) {
    it(`${name}: the five few-shot tasks, first scored item`, () => {
      const first = firstOf(name);
      for (const [task, messages] of Object.entries(EXPECTED[name])) {
        expect(first[task]!.messages, `${name} ${task}`).toEqual(messages);
      }
    });

    it(`${name}: LongHealth's first prompt of sub-task 1 and of sub-task 3`, async () => {
      const samples = buildLongHealth(loadLongHealth(join(folder, 'benchmark_v5.json')), {
        protocol: CLUE_PROTOCOL[name],
        model: chatModel,
        contextWindow: 8192,
        tokenizer: await getTokenizer('o200k_base'),
        seed: 1,
      });
      // 2 questions × (5 prompts of sub-task 1 + 10 of sub-tasks 2 and 3).
      expect(samples).toHaveLength(30);
      expect(samples[0]).toMatchObject({
        id: 'longhealth/task1/p1-q0/0',
        messages: [system(SYSTEM.longhealth), user(LONGHEALTH_USER)],
        gold: { choice: 'A' },
        generation: { maxOutputTokens: 50 },
      });
      const task3 = samples.find((sample) => sample.params.subtask === 3)!;
      expect(task3.id).toBe('longhealth/task3/p1-q0/0');
      expect(task3.gold).toEqual({ choice: 'F' });
      // Only the other patient's documents, and option F.
      expect(task3.prompt).toContain('Patient p2 ');
      expect(task3.prompt).not.toContain('Patient p1 ');
      expect(task3.prompt).toContain('E: None\nF: Question cannot be answered with provided documents\n');
    });
  }

  it('paper-2024, a chat model without a system role: the system prompt joins the first shot', () => {
    const { meqsum } = firstOf('paper-2024', { instruct: true, systemRole: false });
    expect(meqsum!.messages).toEqual([
      user(`${SYSTEM.meqsum}\n\n${inquiry(0)}`),
      assistant('Question: Is drug 0 safe?'),
      user(inquiry(1)),
      assistant('Question: Is drug 1 safe?'),
      user(inquiry(2)),
      assistant('Question: Is drug 2 safe?'),
      user(inquiry(3)),
      assistant('Question: '),
    ]);
  });

  it('paper-2024, a base model: one plain text, blank lines between, ending in the prefill', () => {
    const { meqsum, mednli } = firstOf('paper-2024', { instruct: false, systemRole: false });
    expect(meqsum!.messages).toEqual([
      user(
        `${SYSTEM.meqsum}\n\n${inquiry(0)}\n\nQuestion: Is drug 0 safe?\n\n${inquiry(1)}\n\nQuestion: Is drug 1 safe?\n\n${inquiry(2)}\n\nQuestion: Is drug 2 safe?\n\n${inquiry(3)}\n\nQuestion: `,
      ),
    ]);
    expect(mednli!.messages).toEqual([
      user(
        `${SYSTEM.mednli}\n\n${nli(0)}\n\nentailment\n\n${nli(1)}\n\nneutral\n\n${nli(2)}\n\ncontradiction\n\n${nli(3)}\n\n`,
      ),
    ]);
  });

  it('paper-2024 LongHealth without a system role, and for a base model', async () => {
    const tokenizer = await getTokenizer('o200k_base');
    const build = (model: { instruct: boolean; systemRole: boolean }) =>
      buildLongHealth(loadLongHealth(join(folder, 'benchmark_v5.json')), {
        protocol: CLUE_PROTOCOL['paper-2024'],
        model,
        contextWindow: 8192,
        tokenizer,
        seed: 1,
      })[0]!.messages;
    expect(build({ instruct: true, systemRole: false })).toEqual([
      user(`${SYSTEM.longhealth}${LONGHEALTH_USER}`),
    ]);
    expect(build({ instruct: false, systemRole: false })).toEqual([
      user(`${SYSTEM.longhealth}\n\n\n${LONGHEALTH_USER}`),
    ]);
  });

  it('repo-2025 refuses a base model; generation limits and truncation follow the protocol', () => {
    expect(() => firstOf('repo-2025', { instruct: false, systemRole: false })).toThrow(
      /runs chat models only/,
    );
    const paper = firstOf('paper-2024');
    expect(paper.meqsum!.generation).toEqual({ maxOutputTokens: 200, truncatePromptTokens: 8192 - 200 });
    expect(paper.mednli!.generation).toEqual({ maxOutputTokens: 20, truncatePromptTokens: 8192 - 200 });
    expect(paper['problem-summary']!.generation).toEqual({
      maxOutputTokens: 100,
      truncatePromptTokens: 8192 - 100,
    });
    const repo = firstOf('repo-2025');
    expect(repo.meqsum!.generation).toEqual({ maxOutputTokens: 512 });
    expect(repo.mednli!.generation).toEqual({ maxOutputTokens: 20 });
  });
});
