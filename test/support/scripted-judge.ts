import type { RecordedRequest } from './llm-test-server.js';

/**
 * What a scripted judge reads of a request sent to the test server: the criteria of the system
 * prompt (`- id (+5): …`), the answer to grade, whether its block came before the reference's
 * (the swap probe), and the model asked.
 */
export function readJudgeRequest(request: RecordedRequest) {
  const messages = request.body.messages as Array<{ role: string; content: string }>;
  const criteria = [...messages[0]!.content.matchAll(/^- ([a-z0-9-]+) \(([+-]\d+)\)/gm)].map((match) => ({
    id: match[1]!,
    points: Number(match[2]),
  }));
  const user = messages[1]!.content;
  const answer = /<answer_to_grade>\n([\s\S]*?)\n<\/answer_to_grade>/.exec(user)![1]!;
  const answerFirst = user.indexOf('<answer_to_grade>') < user.indexOf('<reference_answer>');
  return { criteria, answer, answerFirst, model: request.body.model as string };
}

/** A judge's well-formed answer: every criterion with the verdict `met(index, points)` gives. */
export function judgeVerdicts(
  criteria: ReadonlyArray<{ id: string; points: number }>,
  met: (index: number, points: number) => boolean,
): { kind: 'answer'; text: string } {
  const text = JSON.stringify({
    criteria: criteria.map((criterion, index) => ({
      id: criterion.id,
      met: met(index, criterion.points),
      reason: 'because',
    })),
  });
  return { kind: 'answer', text };
}
