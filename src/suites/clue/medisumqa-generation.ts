import type { ChatMessage } from '../../core/chat-model.js';
import { MEDISUMQA_GENERATION_TEXT as TEXT } from './medisumqa-generation-text.js';

/**
 * The text rules of CLUE's MeDiSumQA generation (`data/MeDiSumQA/generate_qas.py` with its
 * `utils.py`), as functions: which notes qualify, what of a note the model reads, the two
 * conversations, and what is kept of the answers. Python's rules are kept where they differ
 * from JavaScript's: `str.strip()` and regex `\s` use Python's whitespace set.
 */

/** Python's `str.isspace()` characters (also regex `\s` on str patterns). */
const PY_SPACE =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING = new RegExp(`[${PY_SPACE}]+$`);
const PARAGRAPH_BREAK = new RegExp(`\\n[${PY_SPACE}]*\\n[${PY_SPACE}]*\\n`);

/** Python's `str.strip()`. */
export function pythonStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** The phrase a note must contain to be used (after the shuffle). */
export const ADMITTED_PHRASE = 'You were admitted to the hospital';
/** The note whose discharge instructions are the fact-extraction example (`get_example.py`). */
export const EXAMPLE_NOTE_ID = '13714762-DS-14';
/** The script's cap on notes (`--max_discharge_notes`). */
export const DEFAULT_MAX_NOTES = 4000;
/** Output limit of both generations (`max_new_tokens`). */
export const GENERATION_MAX_TOKENS = 1000;
/** The generations' stop sequences (Llama 3's header and end-of-turn markers, ChatML's end). */
export const STOP_SEQUENCES = ['<|start_header_id|>', '<|end_header_id|>', '<|eot_id|>', '<|im_end|>'];
/** The prefills: the script appends each to the prompt and puts it before the generated text. */
export const FACTS_PREFILL = '\nStatements:\n- ';
export const QUESTIONS_PREFILL = '\nQuestion: ';

/**
 * `find_instructions`: paragraphs (split at two blank lines, stripped) starting with "discharge
 * instructions" (any case) are the instructions; the rest, joined by blank lines, is the note
 * without them.
 */
export function findInstructions(note: string): { instructions: string[]; withoutInstructions: string } {
  const paragraphs = note.split(PARAGRAPH_BREAK).map(pythonStrip);
  const instructions = paragraphs.filter((paragraph) =>
    paragraph.toLowerCase().startsWith('discharge instructions'),
  );
  const rest = paragraphs.filter(
    (paragraph) => !paragraph.toLowerCase().startsWith('discharge instructions'),
  );
  return { instructions, withoutInstructions: rest.join('\n\n') };
}

/**
 * What the model reads of a note: `postprocess_instructions` (the paragraphs joined, their first
 * line dropped, everything from "Followup Instructions" on dropped), cut at "It was a pleasure".
 * Empty: the script skips the note (and does not count it).
 */
export function instructionsOf(note: string): { instructions: string; withoutInstructions: string } {
  const found = findInstructions(note);
  let text = found.instructions.join('\n').split('\n').slice(1).join('\n');
  if (text.includes('Followup Instructions')) text = text.split('Followup Instructions')[0]!;
  return {
    instructions: text.split('It was a pleasure')[0]!,
    withoutInstructions: found.withoutInstructions,
  };
}

/** Python `str.format` with one named slot (the values are not parsed again). */
function format(template: string, slot: string, value: string): string {
  return template.split(`{${slot}}`).join(value);
}

/** Step 1's conversation: the system prompt, the example instructions and their statements, the note's. */
export function factExtractionMessages(exampleInstructions: string, instructions: string): ChatMessage[] {
  return [
    { role: 'system', content: TEXT.factExtractionSystem },
    { role: 'user', content: format(TEXT.factExtractionUser, 'instructions', exampleInstructions) },
    { role: 'assistant', content: format(TEXT.factExtractionAnswer, 'statements', TEXT.exampleStatements) },
    { role: 'user', content: format(TEXT.factExtractionUser, 'instructions', instructions) },
  ];
}

/** Step 2's conversation: the system prompt, the example statements and questions, the note's statements. */
export function questionMessages(statements: readonly string[]): ChatMessage[] {
  return [
    { role: 'system', content: TEXT.questionSystem },
    { role: 'user', content: TEXT.questionExampleInput },
    { role: 'assistant', content: TEXT.questionExampleOutput },
    { role: 'user', content: format(TEXT.questionUser, 'statements', `- ${statements.join('\n- ')}`) },
  ];
}

/**
 * The prompt text the script sends: `apply_chat_template` of Meta-Llama-3-70B-Instruct (its
 * template: `<|begin_of_text|>`, then per message a header, the content stripped, `<|eot_id|>`;
 * then the assistant header) followed by the prefill.
 */
export function llama3Prompt(messages: readonly ChatMessage[], prefill: string): string {
  const turns = messages
    .map(
      (message) =>
        `<|start_header_id|>${message.role}<|end_header_id|>\n\n${pythonStrip(message.content)}<|eot_id|>`,
    )
    .join('');
  return `<|begin_of_text|>${turns}<|start_header_id|>assistant<|end_header_id|>\n\n${prefill}`;
}

/** A generation cut where a stop sequence begins (the server stops there). */
export function cutAtStop(text: string): string {
  let end = text.length;
  for (const stop of STOP_SEQUENCES) {
    const at = text.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  return text.slice(0, end);
}

/**
 * `postprocess_llm_results` on the prefill plus the generation: each line stripped; lines with
 * "___" (an anonymised name) dropped; lines starting "* " or "- " kept without the marker.
 */
export function statementsOf(generation: string): string[] {
  return `${FACTS_PREFILL}${cutAtStop(generation)}`
    .split('\n')
    .map(pythonStrip)
    .filter((line) => !line.includes('___') && (line.startsWith('* ') || line.startsWith('- ')))
    .map((line) => pythonStrip(line.slice(2)));
}

/**
 * `postprocess_qas` on the prefill plus the generation: every `Question: …\nAnswer: …\n` (one line
 * each — Python's `.` stops at a newline only — so a last pair without a closing newline is lost), kept when the stripped answer is one of
 * the statements, word for word.
 */
export function questionAnswersOf(
  statements: readonly string[],
  generation: string,
): Array<[string, string]> {
  const known = new Set(statements.map(pythonStrip));
  const text = `${QUESTIONS_PREFILL}${cutAtStop(generation)}`;
  const pairs: Array<[string, string]> = [];
  for (const match of text.matchAll(/Question: ([^\n]*?)\nAnswer: ([^\n]*?)\n/g)) {
    const answer = pythonStrip(match[2]!);
    if (known.has(answer)) pairs.push([pythonStrip(match[1]!), answer]);
  }
  return pairs;
}
