import type { ClueTaskName } from './load-tasks.js';

/** The two reference versions of the CLUE authors' scripts (GitHub TIO-IKIM/CLUE). */
export const CLUE_PROTOCOLS = ['paper-2024', 'repo-2025'] as const;
export type ClueProtocolName = (typeof CLUE_PROTOCOLS)[number];

export const PROTOCOL_COMMITS: Readonly<Record<ClueProtocolName, string>> = {
  'paper-2024': 'fdb4ec7',
  'repo-2025': '2de4314',
};

/** The BERTScore encoders the scripts name (through the authors' bert_score fork), and their layers. */
export const BERTSCORE_ENCODERS = {
  'allenai/scibert_scivocab_uncased': { layer: 8 },
  'emilyalsentzer/Bio_ClinicalBERT': { layer: 9 },
} as const;
export type BertScoreEncoderName = keyof typeof BERTSCORE_ENCODERS;

/**
 * Output post-processing before scoring. `paper`: cut at Phi's " <|end|>" (Phi models only),
 * then remove self-prompting (`You are an AI…`, `[INST]…`, `<|user|>…` to the end of the line).
 * `paper-strip`: strip surrounding whitespace, then the Phi cut (MeDiSumQA). `none`: as generated.
 */
export type Postprocess = 'paper' | 'paper-strip' | 'none';

/** How a task's per-item scores become its mean. */
export type Averaging = 'first-item-twice' | 'mean';

/** Everything about one task that a protocol decides. */
export interface TaskRules {
  /** Item order before the first `shots` items become the examples. */
  order: 'file' | 'python-seed-1';
  shots: number;
  /** Written after the chat template, for the model to continue ('' for none). */
  prefill: string;
  /** Shot answers start with this (the scripts' `assistant_response_template`). */
  answerStart: string;
  maxNewTokens: number;
  /** Input tokens the server keeps (TGI `truncate`), from the model's context window; none when undefined. */
  truncate?: (contextWindow: number) => number;
  postprocess: Postprocess;
  averaging: Averaging;
  bertscore?: { encoder: BertScoreEncoderName; lowercase: boolean };
}

export interface ClueProtocol {
  name: ClueProtocolName;
  commit: string;
  /**
   * How the conversation is assembled. `by-model`: a system role when the model has one, else
   * the system prompt merged into the first user turn; base models get plain text joined by
   * blank lines (paper-2024's `utils.build_*`). `system-role`: always a system message, chat
   * models only (repo-2025's vLLM `LLM.chat`).
   */
  chat: 'by-model' | 'system-role';
  tasks: Readonly<Record<ClueTaskName, TaskRules>>;
  longhealth: {
    /** Token budget of the prompt (the launch script's `--max_len`), before the system prompt's tokens come off. */
    maxLen: number;
    /** Sub-tasks 2 and 3 fill the model's own window instead of `maxLen`. */
    distractorsFillWindow: boolean;
    /** Which option is gold when several contain the right answer's text. */
    goldOption: 'last-containing' | 'first-containing';
  };
}

const PHI_AND_SELF_PROMPTING: Postprocess = 'paper';

const PAPER_2024: ClueProtocol = {
  name: 'paper-2024',
  commit: PROTOCOL_COMMITS['paper-2024'],
  chat: 'by-model',
  tasks: {
    mednli: {
      order: 'file',
      shots: 3,
      prefill: '',
      answerStart: '',
      maxNewTokens: 20,
      truncate: (window) => window - 200,
      postprocess: PHI_AND_SELF_PROMPTING,
      averaging: 'first-item-twice',
    },
    meqsum: {
      order: 'file',
      shots: 3,
      prefill: 'Question: ',
      answerStart: 'Question: ',
      maxNewTokens: 200,
      truncate: (window) => Math.min(window - 200, 24576),
      postprocess: PHI_AND_SELF_PROMPTING,
      averaging: 'first-item-twice',
      bertscore: { encoder: 'allenai/scibert_scivocab_uncased', lowercase: false },
    },
    'problem-summary': {
      order: 'file',
      shots: 3,
      prefill: 'Diagnoses/Patient problems: ',
      answerStart: 'Diagnoses/Patient problems: ',
      maxNewTokens: 100,
      truncate: (window) => window - 100,
      postprocess: PHI_AND_SELF_PROMPTING,
      averaging: 'first-item-twice',
      bertscore: { encoder: 'emilyalsentzer/Bio_ClinicalBERT', lowercase: true },
    },
    longhealth: {
      order: 'file',
      shots: 0,
      prefill: '',
      answerStart: '',
      maxNewTokens: 50,
      // Sub-task 1 only; sub-tasks 2 and 3 send no truncate (see longhealth.ts).
      truncate: (window) => window - 50,
      postprocess: 'none',
      averaging: 'mean',
    },
    medisumqa: {
      order: 'python-seed-1',
      shots: 1,
      // The script at fdb4ec7 writes `.format(answer="")` on a template whose field is {Answer},
      // which raises KeyError; the commits before it wrote `Answer=""`, i.e. this prefill.
      prefill: 'Answer: ',
      answerStart: 'Answer: ',
      maxNewTokens: 200,
      truncate: (window) => window - 200,
      postprocess: 'paper-strip',
      averaging: 'first-item-twice',
      bertscore: { encoder: 'emilyalsentzer/Bio_ClinicalBERT', lowercase: false },
    },
    medisumcode: {
      order: 'file',
      shots: 1,
      prefill: 'ICD-10 Codes: ',
      answerStart: 'ICD-10 Codes: ',
      maxNewTokens: 200,
      truncate: (window) => window - 200,
      postprocess: PHI_AND_SELF_PROMPTING,
      averaging: 'first-item-twice',
    },
  },
  longhealth: { maxLen: 8140, distractorsFillWindow: false, goldOption: 'last-containing' },
};

/** repo-2025 sends every task the same way: no prefill, no post-processing, seed-1 order, 512 new tokens. */
const REPO_2025_TASK = {
  order: 'python-seed-1',
  shots: 3,
  prefill: '',
  answerStart: '',
  maxNewTokens: 512,
  postprocess: 'none',
  averaging: 'mean',
} as const satisfies TaskRules;
const SCIBERT = { encoder: 'allenai/scibert_scivocab_uncased', lowercase: false } as const;

const REPO_2025: ClueProtocol = {
  name: 'repo-2025',
  commit: PROTOCOL_COMMITS['repo-2025'],
  chat: 'system-role',
  tasks: {
    mednli: { ...REPO_2025_TASK, maxNewTokens: 20, averaging: 'first-item-twice' },
    meqsum: { ...REPO_2025_TASK, bertscore: SCIBERT },
    'problem-summary': { ...REPO_2025_TASK, bertscore: SCIBERT },
    longhealth: { ...REPO_2025_TASK, order: 'file', shots: 0, maxNewTokens: 50 },
    medisumqa: { ...REPO_2025_TASK, shots: 1, bertscore: SCIBERT },
    medisumcode: {
      ...REPO_2025_TASK,
      shots: 1,
      answerStart: 'ICD-10 Codes: ',
      averaging: 'first-item-twice',
    },
  },
  longhealth: { maxLen: 8140, distractorsFillWindow: true, goldOption: 'first-containing' },
};

export const CLUE_PROTOCOL: Readonly<Record<ClueProtocolName, ClueProtocol>> = {
  'paper-2024': PAPER_2024,
  'repo-2025': REPO_2025,
};

/** The scripts' post-processing of a raw output (`modelId` decides the Phi rule, as the scripts' model path did). */
export function postprocessOutput(output: string, rule: Postprocess, modelId: string): string {
  if (rule === 'none') return output;
  let text = rule === 'paper-strip' ? output.trim() : output;
  if (modelId.toLowerCase().includes('phi') && text.includes(' <|end|>')) text = text.split(' <|end|>')[0]!;
  // Python's "." is any character but a newline (JavaScript's would also stop at \r, U+2028, U+2029).
  if (rule === 'paper')
    text = text.replace(/(You are an AI[^\n]*)|(\[INST\][^\n]*)|((<\|user\|>)[^\n]*)/g, '');
  return text;
}

/** How a run's protocol (`parameters.protocol.name`) averages a task's items; `mean` when it names none. */
export function averagingOf(parameters: Readonly<Record<string, unknown>>, task: string): Averaging {
  const name = (parameters.protocol as { name?: string } | undefined)?.name;
  const protocol = CLUE_PROTOCOL[name as ClueProtocolName] as ClueProtocol | undefined;
  return protocol?.tasks[task as ClueTaskName]?.averaging ?? 'mean';
}

/** Mean of a task's per-item scores under its averaging rule (scores in scoring order). */
export function averaged(values: readonly number[], rule: Averaging): number {
  if (values.length === 0) return Number.NaN;
  const total = values.reduce((sum, value) => sum + value, 0);
  // utils.update_results starts each metric's list with the first value and then appends it again.
  return rule === 'first-item-twice' ? (total + values[0]!) / (values.length + 1) : total / values.length;
}
