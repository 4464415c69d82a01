import type { GenerationRequest } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import {
  ADMITTED_PHRASE,
  DEFAULT_MAX_NOTES,
  EXAMPLE_NOTE_ID,
  FACTS_PREFILL,
  factExtractionMessages,
  instructionsOf,
  QUESTIONS_PREFILL,
  questionAnswersOf,
  questionMessages,
  statementsOf,
} from './medisumqa-generation.js';
import { dischargeTexts, forEachDischargeNote } from './mimic-discharge.js';
import { pythonJsonDumps } from './python-json.js';
import { PythonRandom } from './python-random.js';

/** The seed `generate_qas.py` sets before it shuffles the notes. */
export const MEDISUMQA_SEED = 44;

/** Answers every request (resumable and cached by the caller); the text after the prefill. */
export type AnswerRequests = (
  step: 'facts' | 'questions',
  requests: GenerationRequest[],
) => Promise<Map<string, string>>;

/** A line of generate_qas.py's output. */
export interface GeneratedNote {
  note_id: string;
  with_summary: string;
  without_summary: string;
  qas: Array<[string, string]>;
}

export interface GenerateMeDiSumQaOptions {
  /** MIMIC-IV-Note `discharge.csv` (or `.csv.gz`). */
  discharge: string;
  /** Notes to generate from (the script's `--max_discharge_notes`, default 4000). */
  maxNotes?: number;
  /** The note whose instructions are the few-shot example (default 13714762-DS-14, as get_example.py). */
  exampleNote?: string;
  answer: AnswerRequests;
  onPhase?: (phase: string) => void;
}

interface Selection {
  notes: Array<{ noteId: string; text: string; instructions: string; withoutInstructions: string }>;
  exampleInstructions: string;
  total: number;
}

/**
 * Which notes the script uses: all notes of `discharge.csv` (note_id = column 1, text = column
 * 8), `random.seed(44)` + `random.shuffle`, those containing "You were admitted to the hospital"
 * in that order, skipping a note whose instructions come out empty (the script neither asks the
 * model about it nor counts it), until `maxNotes`. That needs no model, so the file is read twice:
 * once to decide, once for the chosen texts.
 */
export async function selectMeDiSumQaNotes(options: GenerateMeDiSumQaOptions): Promise<Selection> {
  const exampleNote = options.exampleNote ?? EXAMPLE_NOTE_ID;
  const noteIds: string[] = [];
  const usable: boolean[] = [];
  let exampleInstructions: string | undefined;
  await forEachDischargeNote(options.discharge, (fields) => {
    const text = fields[7]!;
    noteIds.push(fields[0]!);
    usable.push(text.includes(ADMITTED_PHRASE) && instructionsOf(text).instructions !== '');
    if (fields[0] === exampleNote && exampleInstructions === undefined)
      exampleInstructions = instructionsOf(text).instructions;
  });
  if (exampleInstructions === undefined)
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${options.discharge}: no note ${exampleNote}, whose discharge instructions are the fact-extraction example`,
      hint: 'The script takes the example from note 13714762-DS-14 of MIMIC-IV-Note (get_example.py); give the full discharge.csv, or name another note with --example-note.',
    });
  const order = new PythonRandom(MEDISUMQA_SEED).shuffle(noteIds.map((_, index) => index));
  const chosen = order.filter((index) => usable[index]).slice(0, options.maxNotes ?? DEFAULT_MAX_NOTES);
  const texts = await dischargeTexts(options.discharge, chosen);
  return {
    notes: chosen.map((index) => {
      const text = texts.get(index)!;
      return { noteId: noteIds[index]!, text, ...instructionsOf(text) };
    }),
    exampleInstructions,
    total: noteIds.length,
  };
}

/**
 * generate_qas.py on the user's notes with any chat model: per note, the statements the model
 * extracts from its discharge instructions (few-shot with the example), then the questions it
 * writes for them; a question is kept when its answer is one of the statements, word for word.
 * Request ids are note ids (with the step), so a resumed run asks only what is missing.
 */
export async function generateMeDiSumQaNotes(
  options: GenerateMeDiSumQaOptions,
): Promise<{ notes: GeneratedNote[]; total: number; statements: number }> {
  options.onPhase?.(`reading ${options.discharge}`);
  const selection = await selectMeDiSumQaNotes(options);
  options.onPhase?.(`step 1 of 2: statements of ${selection.notes.length} notes`);
  const facts = await options.answer(
    'facts',
    selection.notes.map((note) => ({
      id: `facts:${note.noteId}`,
      messages: factExtractionMessages(selection.exampleInstructions, note.instructions),
      prefill: FACTS_PREFILL,
    })),
  );
  const statements = new Map(
    selection.notes.map((note) => [note.noteId, statementsOf(facts.get(`facts:${note.noteId}`) ?? '')]),
  );
  options.onPhase?.(`step 2 of 2: questions of ${selection.notes.length} notes`);
  const questions = await options.answer(
    'questions',
    selection.notes.map((note) => ({
      id: `questions:${note.noteId}`,
      messages: questionMessages(statements.get(note.noteId)!),
      prefill: QUESTIONS_PREFILL,
    })),
  );
  return {
    notes: selection.notes.map((note) => ({
      note_id: note.noteId,
      with_summary: note.text,
      without_summary: note.withoutInstructions,
      qas: questionAnswersOf(statements.get(note.noteId)!, questions.get(`questions:${note.noteId}`) ?? ''),
    })),
    total: selection.total,
    statements: [...statements.values()].reduce((sum, list) => sum + list.length, 0),
  };
}

/** generate_qas.py's output lines: `json.dump(record, ensure_ascii=False)` and a newline each. */
export function formatGeneratedNotes(notes: readonly GeneratedNote[]): string {
  return notes.map((note) => `${pythonJsonDumps(note, { ensureAscii: false })}\n`).join('');
}
