import type { ChatModel, ChatRequest, ChatResponse } from '../../core/chat-model.js';
import { bm25Scores, lexicalTerms } from '../retrievers/bm25.js';

const TEMPLATE = /\{\s*"([^"]+)"\s*:\s*(\[\s*"|\[|")/;
// The release's en_kg template spells "Quesiton".
const QUESTION_LINE = /^(?:Question|Quesiton|问题|Medical (?:Phrase|Noun)|医疗名词)\s*[:：]\s*(.*)$/i;

/**
 * The question: the text after the last "Question:"/"问题：" label (or Term's "Medical phrase:"/
 * "医疗名词："), on the label's line or the next non-empty one; else the last line with a question mark.
 */
function findQuestion(lines: readonly string[]): { question: string; index: number } | undefined {
  for (let index = lines.length - 1; index >= 0; index--) {
    const match = QUESTION_LINE.exec(lines[index]!.trim());
    if (!match) continue;
    if (match[1]!.trim() !== '') return { question: match[1]!, index };
    const next = lines.findIndex((line, at) => at > index && line.trim() !== '');
    if (next !== -1) return { question: lines[next]!.trim(), index: next };
  }
  for (let index = lines.length - 1; index >= 0; index--) {
    if (/[?？]/.test(lines[index]!)) return { question: lines[index]!, index };
  }
  return undefined;
}

/** The context sentences ranked by BM25 against the question, best first, with their scores. */
function rankedSentences(prompt: string): Array<{ sentence: string; score: number }> {
  const lines = prompt.split('\n');
  const found = findQuestion(lines);
  if (!found) return [];
  // Everything but the instruction (first line) and the question line itself.
  const body = lines.filter((_, index) => index > 0 && index !== found.index).join('\n');
  const sentences = body
    .split(/(?<=[.。!?！？])\s*|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
  const scores = bm25Scores({ query: lexicalTerms(found.question), documents: sentences.map(lexicalTerms) });
  return sentences
    .map((sentence, index) => ({ sentence, score: scores[index]! }))
    .sort((left, right) => right.score - left.score);
}

/** The context sentence most similar to the question under BM25. */
function bestSentence(prompt: string): string {
  return rankedSentences(prompt)[0]?.sentence ?? '';
}

/** Up to five sentences scoring at least 80% of the best one (a list-of-strings answer). */
function bestSentences(prompt: string): string[] {
  const ranked = rankedSentences(prompt);
  const top = ranked[0]?.score ?? 0;
  if (top <= 0) return [];
  return ranked
    .filter((item) => item.score >= 0.8 * top)
    .slice(0, 5)
    .map((item) => item.sentence);
}

/**
 * Lines that open with the same text before their first number (at least 8 characters of
 * it) three or more times, in order; the first number of each.
 */
function templatedNumbers(prompt: string): number[] {
  const lines = prompt.split('\n').filter((line) => /\d/.test(line));
  const openings = lines.map((line) => line.slice(0, line.search(/\d/)).trim());
  const counts = new Map<string, number>();
  for (const opening of openings) counts.set(opening, (counts.get(opening) ?? 0) + 1);
  return lines.flatMap((line, index) => {
    const opening = openings[index]!;
    return opening.length >= 8 && (counts.get(opening) ?? 0) >= 3 ? [Number(/\d+/.exec(line)![0])] : [];
  });
}

/**
 * `baseline:extractive` — a non-LLM baseline that reads only the prompt. It finds the
 * JSON answer template the instruction asks for (the first `{"key": "…"}` or
 * `{"key": […]}`):
 * - string answers: the context sentence with the highest BM25 score against the question
 *   line, returned whole (so exact match rarely holds, while subset match often does);
 * - lists of strings (`["xxx", …]`): up to five sentences scoring at least 80% of the best;
 * - lists of numbers: the first number of every line whose opening (the text before its first
 *   number) recurs three or more times (on MedOdyssey Counting this reads the counting sentences, and on the correction
 *   type it reports the wrong count each sentence states first).
 * It never sees gold data and makes no network calls.
 */
export class ExtractiveBaselineChatModel implements ChatModel {
  readonly provider = 'baseline';
  readonly modelId = 'extractive';
  readonly endpoint = 'local';

  async generate(request: ChatRequest): Promise<ChatResponse> {
    const prompt = request.messages
      .filter((message) => message.role === 'user')
      .map((message) => message.content)
      .join('\n');
    const template = TEMPLATE.exec(prompt);
    const key = template?.[1] ?? 'answer';
    const kind = template?.[2]?.replace(/\s/g, '');
    const answer =
      kind === '[' ? templatedNumbers(prompt) : kind === '["' ? bestSentences(prompt) : bestSentence(prompt);
    return { text: JSON.stringify({ [key]: answer }), usage: undefined, finishReason: 'stop' };
  }
}
