import { MedbenchError } from '../../core/errors.js';
import { rouge } from '../../metrics/rouge.js';
import type { GeneratedNote } from './generate-medisumqa.js';
import { pythonJsonDumps } from './python-json.js';

/** One question of the final set, in the file format `run clue` reads (docs/formats.md). */
export interface MeDiSumQaEntry {
  note_id: string;
  discharge_summary: string;
  without_discharge_summary: string;
  Question: string;
  Answer: string;
}

interface ScoredPair {
  entry: MeDiSumQaEntry;
  rougeL: number;
  bertscore: number;
}

/**
 * `post_process_qas.py`: every question-answer pair scored by how much the question gives away of
 * its answer — ROUGE-L F1 (question as prediction, answer as reference) and BERTScore F1 with
 * Bio_ClinicalBERT — then sorted (stably) by ROUGE-L, a copy of that order sorted by BERTScore, and
 * the i-th pair taken from the ROUGE-L order for even i and from the BERTScore order for odd i,
 * for i < topK. The same pair can be taken twice (the script does not prevent it). The script's
 * UMLS F1 is computed there but never used, so it is not computed here.
 */
export async function postProcessQas(options: {
  notes: readonly GeneratedNote[];
  topK: number;
  bertScoreF1s: (pairs: Array<{ prediction: string; reference: string }>) => Promise<number[]>;
}): Promise<{ entries: MeDiSumQaEntry[]; pairs: number; repeated: number }> {
  const entries = options.notes.flatMap((note) =>
    note.qas.map(([question, answer]) => ({
      note_id: note.note_id,
      discharge_summary: note.with_summary,
      without_discharge_summary: note.without_summary,
      Question: question,
      Answer: answer,
    })),
  );
  if (options.topK > entries.length)
    throw new MedbenchError({
      code: 'USAGE',
      message: `--top-k-qas ${options.topK} is more than the ${entries.length} question-answer pairs generated`,
      hint: `Give --top-k-qas ${entries.length} or less, or generate from more notes (--max-notes).`,
    });
  const bertscores = await options.bertScoreF1s(
    entries.map((entry) => ({ prediction: entry.Question, reference: entry.Answer })),
  );
  const scored: ScoredPair[] = entries.map((entry, index) => ({
    entry,
    rougeL: rouge(entry.Question, entry.Answer).rougeL.f,
    bertscore: bertscores[index]!,
  }));
  // Array.prototype.sort is stable, as Python's list.sort is.
  const byRouge = [...scored].sort((left, right) => left.rougeL - right.rougeL);
  const byBertScore = [...byRouge].sort((left, right) => left.bertscore - right.bertscore);
  const chosen = Array.from({ length: options.topK }, (_, index) =>
    index % 2 === 0 ? byRouge[index]! : byBertScore[index]!,
  );
  return {
    entries: chosen.map((pair) => pair.entry),
    pairs: entries.length,
    repeated: chosen.length - new Set(chosen).size,
  };
}

/** `json.dumps(entry)` per line (ASCII only, as the script writes it: `\uXXXX` for the rest). */
export function formatMeDiSumQaLines(entries: readonly MeDiSumQaEntry[]): string {
  return entries.map((entry) => `${pythonJsonDumps(entry)}\n`).join('');
}
