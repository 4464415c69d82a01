import { existsSync } from 'node:fs';
import { GENERATION_REDACT_OPTION } from '../../../compose/generation-runs.js';
import { writeOutputFile } from '../../../compose/output-file.js';
import { numberOption, type SuiteCommand, type SuiteCommandContext } from '../../../compose/suite-plugin.js';
import { MedbenchError } from '../../../core/errors.js';
import { LocalOnnxTokenEncoder } from '../../../providers/local-onnx/local-onnx-token-encoder.js';
import { bertScoreF1s } from '../bertscore-pass.js';
import { formatGeneratedNotes } from '../generate-medisumqa.js';
import { formatMeDiSumQaLines, postProcessQas } from '../post-process-qas.js';
import { BERTSCORE_ENCODERS } from '../protocols.js';
import { type GenerateMeDiSumQaRequest, generateMeDiSumQa } from './generate-medisumqa.js';

export interface GenerateMeDiSumQaCommandOptions extends GenerateMeDiSumQaRequest {
  out: string;
  notesOut?: string;
  topKQas: number;
  /** Only post_process_qas.py's step needs it: without it, the command stops after the notes file. */
  bertscoreModel?: string;
  bertscoreLayer?: number;
  force?: boolean;
}

/** generate_qas.py's own output beside the final file, unless named. */
function notesPath(options: GenerateMeDiSumQaCommandOptions): string {
  return options.notesOut ?? options.out.replace(/(\.jsonl?)?$/i, '.notes.jsonl');
}

/** The Bio_ClinicalBERT export post_process_qas.py scores with, probed once. */
async function openEncoder(
  folder: string,
  options: GenerateMeDiSumQaCommandOptions,
): Promise<LocalOnnxTokenEncoder> {
  const encoder = new LocalOnnxTokenEncoder({
    folder,
    layer: options.bertscoreLayer ?? BERTSCORE_ENCODERS['emilyalsentzer/Bio_ClinicalBERT'].layer,
    maxLength: 512,
  });
  await encoder.encodeTokens(['probe']);
  return encoder;
}

/** The model's steps are done and their notes written; choosing the pairs needs BERTScore. */
function withoutBertScore(options: GenerateMeDiSumQaCommandOptions, made: string): MedbenchError {
  return new MedbenchError({
    code: 'USAGE',
    message: `${made} (${notesPath(options)}); ${options.out} was not written: post_process_qas.py's step, choosing the ${options.topKQas} pairs, needs --bertscore-model <folder> (BERTScore with Bio_ClinicalBERT).`,
    hint: `Run the same command again with --bertscore-model <folder> (a local ONNX export of emilyalsentzer/Bio_ClinicalBERT: docs/credentialed-data.md) and --force; ${
      options.redact
        ? 'under --redact the answers were not kept, so the model is asked again'
        : 'the answers are kept in generate.sqlite, so the model is not asked again'
    }.`,
  });
}

/**
 * `medbench generate medisumqa`: CLUE's MeDiSumQA from the user's MIMIC-IV notes with any
 * approved chat model — generate_qas.py's two model steps, then post_process_qas.py's choice of
 * the pairs whose question gives least away (ROUGE-L and BERTScore with Bio_ClinicalBERT).
 */
export async function generateMeDiSumQaFiles(
  options: GenerateMeDiSumQaCommandOptions,
  context: SuiteCommandContext,
): Promise<void> {
  for (const path of [options.out, notesPath(options)])
    if (existsSync(path) && !options.force)
      throw new MedbenchError({
        code: 'USAGE',
        message: `${path} exists`,
        hint: 'Give another --out (and --notes-out), or --force to replace them.',
      });
  // Opened (and probed) first: a wrong folder is an error before any model is asked.
  const encoder = options.bertscoreModel ? await openEncoder(options.bertscoreModel, options) : undefined;
  const { hooks, dispose } = context.session();
  try {
    const generated = await generateMeDiSumQa(options, hooks);
    writeOutputFile(notesPath(options), formatGeneratedNotes(generated.notes));
    const made = `Generated from ${generated.notes.length} of ${generated.total} discharge notes (prompts: ${generated.prompts}): ${generated.statements} statements`;
    if (!encoder) throw withoutBertScore(options, made);
    const chosen = await postProcessQas({
      notes: generated.notes,
      topK: options.topKQas,
      bertScoreF1s: (pairs) => bertScoreF1s(pairs, encoder),
    });
    writeOutputFile(options.out, formatMeDiSumQaLines(chosen.entries));
    context.output.stderr(
      `${made}, ${chosen.pairs} question-answer pairs (${notesPath(options)}); ` +
        `the ${options.topKQas} chosen to ${options.out}${chosen.repeated > 0 ? ` (${chosen.repeated} chosen twice, as the script allows)` : ''}.\n` +
        '  Both files are MIMIC-derived: medbench treats them as restricted (approved endpoints only).\n',
    );
  } finally {
    dispose();
    await encoder?.close();
  }
}

/** `medbench generate medisumqa`, with `run`'s model and retry options. */
export const generateMeDiSumQaCommand: SuiteCommand = {
  verb: 'generate',
  name: 'medisumqa',
  description:
    "CLUE MeDiSumQA from MIMIC-IV-Note discharge notes with a chat model: data/MeDiSumQA/generate_qas.py's two steps, then post_process_qas.py",
  options: [
    {
      flags: '--discharge <file>',
      description: 'MIMIC-IV-Note note/discharge.csv (or .csv.gz)',
      required: true,
    },
    {
      flags: '--model <spec>',
      description: 'the generating model (restricted data: approved endpoints only)',
      required: true,
    },
    {
      flags: '--out <file>',
      description: 'the MeDiSumQA file to write (JSON lines; name it medisumqa.json in your CLUE folder)',
      required: true,
    },
    {
      flags: '--top-k-qas <n>',
      description:
        "question-answer pairs to keep (post_process_qas.py's --top_k_qas; the published set has 453)",
      required: true,
      parse: numberOption('--top-k-qas', { min: 1 }),
    },
    {
      flags: '--bertscore-model <folder>',
      description:
        "local ONNX export of emilyalsentzer/Bio_ClinicalBERT (model.onnx with hidden_states outputs, tokenizer.json), for post_process_qas.py's step; without it the command stops after writing --notes-out",
    },
    {
      flags: '--bertscore-layer <n>',
      description: "hidden layer to read (default 9, bert_score's for Bio_ClinicalBERT)",
      parse: numberOption('--bertscore-layer', { min: 0 }),
    },
    {
      flags: '--notes-out <file>',
      description: "generate_qas.py's own output (default: --out with .notes.jsonl)",
    },
    {
      flags: '--max-notes <n>',
      description: "notes to generate from (the script's --max_discharge_notes, default 4000)",
      parse: numberOption('--max-notes', { min: 1 }),
    },
    {
      flags: '--example-note <id>',
      description: 'the note whose discharge instructions are the few-shot example (default 13714762-DS-14)',
    },
    { flags: '--force', description: 'replace --out and --notes-out if they exist' },
    GENERATION_REDACT_OPTION,
  ],
  modelOptions: { outputLimit: "the script's 1000" },
  run: ({ options }, context) =>
    generateMeDiSumQaFiles(options as unknown as GenerateMeDiSumQaCommandOptions, context),
};
