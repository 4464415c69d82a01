/**
 * The prompts of the CLUE authors' evaluation scripts (GitHub TIO-IKIM/CLUE, `eval/*.py`), as
 * the two reference versions send them: paper-2024 (commit fdb4ec7, which produced the paper's
 * Table 3) and repo-2025 (commit 2de4314, the vLLM rewrite). Character for character, typos
 * included ("recieve", "interprete"): a changed character changes what a model is asked.
 */

/** The delimiter of the prompt templates: fourteen dashes. */
const D = '--------------';

export const CLUE_SYSTEM_PROMPTS = {
  mednli:
    "You are a highly skilled assistant, specifically trained to assist medical professionals. You will recieve two sentences, labeled 'SENTENCE_1' and 'SENTENCE_2', respectively. Your task is to determine the logical relation between the two sentences. Valid answers are: ENTAILMENT, NEUTRAL or CONTRADICTION.",
  meqsum:
    'You are a highly skilled assistant, specifically trained to assist patients. Your primary responsibility will be to summarize patient inquiries as concise question. You will be given such a patient inquiry. You will be expected to summarize and rewrite the inquiry as a concise question. Only write out the question. Do not add any other text.',
  'problem-summary':
    "You are a highly skilled and detail-oriented assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge letters from hospitals. You will receive an excerpt of such a discharge letter. Your task is to summarize the diagnoses and problems that led to the patient's hospitalization.",
  medisumqa:
    'You are a highly skilled assistant, specifically trained to assist lays in understanding and extracting key information from medical documents. Your primary responsibility will be to interprete discharge letters from hospitals. You will receive such a discharge letter. You should carefully review the contents and accurately answer questions related to this document. Only respond with the correct answer to the question. Answer briefly without mentioning a lot of specific details. If the question is about measurements (e.g., lab values), interpret their meaning in relation to the question, rather than writing down the values. Do not generate anything else.',
  medisumcode:
    'You are a highly skilled and detail-oriented assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge letters from hospitals. You will be given such a discharge letter. Your task is to identify all primary and secondary diagnoses from the report and list their respective ICD-10 codes.',
  // LongHealth's system prompt starts and ends with a newline, and has a space before its
  // first paragraph break.
  longhealth:
    "\nYou are a highly skilled and detail-oriented assistant, specifically trained to assist medical professionals in interpreting and extracting key information from medical documents. Your primary responsibility will be to analyze discharge letters from hospitals. When you receive one or more of these letters, you will be expected to carefully review the contents and accurately answer multiple-choice questions related to these documents. \n\nYour answers should be:\n1. Accurate: Make sure your answers are based on the information provided in the letters.\n2. Concise: Provide brief and direct answers without unnecessary elaboration.\n3. Contextual: Consider the context and specifics of each question to provide the most relevant information.\n\nRemember, your job is to streamline the physician's decision-making process by providing them with accurate and relevant information from discharge summaries. Efficiency and reliability are key.\n",
} as const;

export const mednliUser = (sentence1: string, sentence2: string) =>
  `\nSENTENCE_1: ${sentence1}\nSENTENCE_2: ${sentence2}\n`;

export const meqsumUser = (inquiry: string) =>
  `${D}PATIENT INQUIRY${D}\n${inquiry}\n${D}END PATIENT INQUIRY${D}`;

export const problemSummaryUser = (subjectives: string, assessment: string) =>
  `${D}BEGIN DISCHARGE LETTER${D}\n${subjectives}\n\n${assessment}\n${D}END DISCHARGE LETTER${D}\nNow respond with the list of diagnoses and patient problems. Do not generate anything else.`;

/** paper-2024 labels the question ("Question: …"); repo-2025 does not. */
export const medisumqaUser = (letter: string, question: string, labelled: boolean) =>
  `${D}BEGIN DISCHARGE LETTER${D}\n${letter}\n${D}END DISCHARGE LETTER${D}\n${labelled ? 'Question: ' : ''}${question}`;

export const medisumcodeUser = (text: string) =>
  `${D}BEGIN DISCHARGE LETTER${D}\n${text}\n${D}END DISCHARGE LETTER${D}\nNow return the list of diagnoses ICD-10 codes you found. Only list the ICD-10 codes. Do not generate anything else.`;

/** The answer starts each script writes after the chat template (paper-2024) or in its shots. */
export const ANSWER_STARTS = {
  meqsum: 'Question: ',
  'problem-summary': 'Diagnoses/Patient problems: ',
  medisumqa: 'Answer: ',
  medisumcode: 'ICD-10 Codes: ',
} as const;

/** LongHealth's user prompt (both versions): documents, question, options, answer format. */
export function longHealthUser(documents: readonly string[], question: string, options: string): string {
  return `\n${D}BEGIN DOCUMENTS${D}\n\n${documents.join(`\n\n${D}\n\n`)}\n\n${D}END DOCUMENTS${D}\n\n${question}\n${options}\n\nPlease answer using the following format:\n1. Begin your answer with the phrase "The correct answer is".\n2. State the letter of the correct option (e.g., A, B, C, D, E).\n3. Follow the letter with a colon and the exact text of the option you chose.\n4. Make sure your answer is a single, concise sentence.\n\nFor example, if the correct answer to a question is option C, and the text for C is 'Acute Bronchitis', your answer should be: \n'The correct answer is C: Acute bronchitis.'\n`;
}

/** The template LongHealth's token budget counts (`len(tokenizer.encode(prompt_template))`), placeholders unfilled. */
export const LONGHEALTH_TEMPLATE = longHealthUser(['{documents}'], '{question_text}', '{options}');

/** The separator whose tokens LongHealth's budget adds per document (not the one it joins with). */
export const LONGHEALTH_BUDGET_SEPARATOR = `\n\n${D} NEW DOCUMENT ${D}\n\n`;

/** Option F of LongHealth sub-tasks 2 and 3. */
export const NOT_IN_DOCUMENTS = 'Question cannot be answered with provided documents';
