import { existsSync } from 'node:fs';
import { type GenerateMeDiSumQaRequest, generateMeDiSumQa } from '../../compose/generate-medisumqa.js';
import { writeOutputFile } from '../../compose/output-file.js';
import type { CommandOutput } from '../../core/command-output.js';
import { MedbenchError } from '../../core/errors.js';
import { LocalOnnxTokenEncoder } from '../../providers/local-onnx/local-onnx-token-encoder.js';
import { bertScoreF1s } from '../../suites/clue/bertscore-pass.js';
import { formatGeneratedNotes } from '../../suites/clue/generate-medisumqa.js';
import { formatMeDiSumQaLines, postProcessQas } from '../../suites/clue/post-process-qas.js';
import { BERTSCORE_ENCODERS } from '../../suites/clue/protocols.js';
import { terminalSession } from '../run-session.js';

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
export async function generateMeDiSumQaCommand(
  options: GenerateMeDiSumQaCommandOptions,
  output: CommandOutput,
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
  const { hooks, dispose } = terminalSession(output);
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
    output.stderr(
      `${made}, ${chosen.pairs} question-answer pairs (${notesPath(options)}); ` +
        `the ${options.topKQas} chosen to ${options.out}${chosen.repeated > 0 ? ` (${chosen.repeated} chosen twice, as the script allows)` : ''}.\n` +
        '  Both files are MIMIC-derived: medbench treats them as restricted (approved endpoints only).\n',
    );
  } finally {
    dispose();
  }
}
