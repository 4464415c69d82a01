import { z } from 'zod';
import { parseNumber } from '../../../compose/parse-options.js';
import type { RunRequest, SuiteRunRequest } from '../../../compose/run-suite.js';
import { type CommandOption, numberOption, repeatedOption } from '../../../compose/suite-plugin.js';
import { MedbenchError } from '../../../core/errors.js';
import { CLUE_PROTOCOLS, type ClueProtocolName } from '../protocols.js';

/** `run clue`'s request: what every run takes, the folder with the official files, and CLUE's own options. */
export interface ClueRunRequest extends RunRequest {
  /** The folder with the official task files. */
  data: string;
  /** Comma-separated task names (default: every task whose file is in `data`). */
  tasks?: string;
  /** paper-2024 (default) or repo-2025: which version of the authors' scripts to follow. */
  protocol?: ClueProtocolName;
  umls?: string;
  umlsLanguage?: string;
  icd10?: string;
  /** Seed of the Python generator LongHealth draws its document orders and distractors from. */
  seed?: number;
  /** Local ONNX encoders for BERTScore: `<encoder name>=<folder>`, or a folder for every encoder. */
  bertscoreModel?: string[];
  /**
   * Read this hidden layer instead of the protocol's (8 for SciBERT, 9 for Bio_ClinicalBERT);
   * `last`: the export's last_hidden_state, for an export cut to the protocol's layer.
   */
  bertscoreLayer?: number | 'last';
}

/** CLUE's options of `medbench run clue` (the CLI prefixes each description with `clue: `). */
export const CLUE_RUN_OPTIONS: readonly CommandOption[] = [
  {
    flags: '--tasks <list>',
    description: 'mednli,meqsum,problem-summary,longhealth,medisumqa,medisumcode (default: all found)',
  },
  {
    flags: '--umls <file>',
    description: 'your UMLS MRCONSO.RRF, for UMLS F1 and the Problem Summary baseline',
  },
  { flags: '--umls-language <code>', description: 'MRCONSO language to keep (default ENG)' },
  {
    flags: '--icd10 <file>',
    description:
      'an ICD-10-CM order or codes file for the valid-code rate (default: the icd10 package table the scripts used, shipped)',
  },
  {
    flags: '--protocol <name>',
    description:
      "which version of the authors' scripts to follow: paper-2024 (commit fdb4ec7, Table 3's) or repo-2025 (commit 2de4314)",
    choices: CLUE_PROTOCOLS,
    default: 'paper-2024',
  },
  {
    flags: '--bertscore-model <encoder=folder>',
    description:
      'a local ONNX export for BERTScore (model.onnx + tokenizer.json), as allenai/scibert_scivocab_uncased=<folder> or emilyalsentzer/Bio_ClinicalBERT=<folder>, or a bare folder for both; repeatable',
    parse: repeatedOption,
  },
  {
    flags: '--bertscore-layer <n|last>',
    description:
      "hidden layer to read (output hidden_states.<n>) instead of the protocol's (8 SciBERT, 9 Bio_ClinicalBERT); last: the export's last_hidden_state (an export cut to that layer)",
    parse: (value) =>
      value === 'last' ? 'last' : parseNumber('--bertscore-layer', value, { min: 0, max: 100 }),
  },
  {
    flags: '--seed <n>',
    description: "seed of LongHealth's document shuffles and distractor draws (default 1)",
    parse: numberOption('--seed', { min: 0 }),
  },
];

/** CLUE's own options as the plan reads them; a library caller's are checked as the CLI's parsers check them. */
const clueOptionsSchema = z.object({
  data: z.string().min(1),
  tasks: z.string().optional(),
  protocol: z.enum(CLUE_PROTOCOLS).optional(),
  umls: z.string().optional(),
  umlsLanguage: z.string().optional(),
  icd10: z.string().optional(),
  seed: z.number().int().min(0).optional(),
  bertscoreModel: z.array(z.string()).optional(),
  bertscoreLayer: z.union([z.number().int().min(0).max(100), z.literal('last')]).optional(),
});

/** The request with CLUE's options checked: a wrong one is a usage error naming it. */
export function clueRunRequest(request: SuiteRunRequest): ClueRunRequest {
  // --task and --tasks are one flag (the CLI syncs them; a library caller may give either).
  const parsed = clueOptionsSchema.safeParse({ ...request, tasks: request.tasks ?? request.task });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'USAGE',
      message: `run clue: option ${issue.path.join('.') || '(request)'}: ${issue.message}.`,
      hint: 'See `medbench run --help` for what each CLUE option takes.',
    });
  }
  return { ...request, ...parsed.data };
}
