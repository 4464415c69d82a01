import { writeFileSync } from 'node:fs';
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

/** A config (written to `file`) naming one priced judge, `priced`, served by the test server at `url`. */
export function writePricedJudgeConfig(file: string, url: string, model: string): void {
  const priced = {
    provider: 'openai-compatible',
    model,
    endpoints: [{ baseURL: `${url}/v1` }],
    prices: { inputPerMillion: 1000, outputPerMillion: 2000 },
  };
  writeFileSync(file, JSON.stringify({ models: { priced } }));
}

/** What `run clue --restricted` records in a run's manifest: its data restricted beyond MIMIC's. */
export const MARKED_RESTRICTED = {
  restrictedData: {
    level: 'restricted',
    what: 'CLUE meqsum',
    why: 'marked restricted (--restricted)',
    redacted: false,
    marked: true,
  },
} as const;

/** A remote judge, which restricted data may not go to. */
export const REMOTE_JUDGE = 'openai-compatible:j@http://judge.example.com/v1';
