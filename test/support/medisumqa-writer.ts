import type { RecordedRequest } from './llm-test-server.js';

/** The text a request sends: chat messages, or a completions prompt. */
export function sentText(request: RecordedRequest): string {
  const body = request.body as { messages?: Array<{ content: string }>; prompt?: string };
  return body.prompt ?? (body.messages ?? []).map((message) => message.content).join('\n');
}

/**
 * A scripted model. Step 1: the note's "You were admitted …" sentence, a fixed statement, and one
 * naming "___" (which the script drops). Step 2: a question for each of the first two statements,
 * one whose answer is no statement, and a last pair without a closing newline (lost).
 */
export function scriptedWriter(request: RecordedRequest) {
  const text = sentText(request);
  if (text.includes('extract all statements')) {
    const admitted = text
      .split('\n')
      .filter((line) => line.startsWith('You were admitted'))
      .at(-1);
    return {
      kind: 'answer' as const,
      text: `${admitted}\n- A new medicine was started.\n- Dr. ___ saw the patient.`,
    };
  }
  const first = /Statements:\n- (.*)\n- A new medicine/.exec(
    text.slice(text.lastIndexOf('Statements:')),
  )?.[1];
  return {
    kind: 'answer' as const,
    text: `Why was the patient in hospital?\nAnswer: ${first}\nQuestion: What changed in treatment?\nAnswer: A new medicine was started.\nQuestion: Who?\nAnswer: Nobody.\nQuestion: Lost?\nAnswer: A new medicine was started.`,
  };
}
