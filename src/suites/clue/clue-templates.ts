import {
  ANSWER_STARTS,
  CLUE_SYSTEM_PROMPTS,
  LONGHEALTH_TEMPLATE,
  medisumcodeUser,
  medisumqaUser,
  mednliUser,
  meqsumUser,
  problemSummaryUser,
} from './protocol-prompts.js';

/**
 * CLUE's prompt templates as its scripts send them, placeholders in braces: each task's system
 * prompt, user prompt and answer start (a run's manifest hashes them).
 */
export function clueTemplates(): Record<string, string> {
  const system = Object.entries(CLUE_SYSTEM_PROMPTS).map(([task, text]) => [`${task}.system`, text]);
  const starts = Object.entries(ANSWER_STARTS).map(([task, text]) => [`${task}.answer-start`, text]);
  return Object.fromEntries([
    ...system,
    ...starts,
    ['mednli.user', mednliUser('{sentence1}', '{sentence2}')],
    ['meqsum.user', meqsumUser('{inquiry}')],
    ['problem-summary.user', problemSummaryUser('{subjectives}', '{assessment}')],
    ['medisumqa.user', medisumqaUser('{letter}', '{question}', true)],
    ['medisumqa.user-unlabelled', medisumqaUser('{letter}', '{question}', false)],
    ['medisumcode.user', medisumcodeUser('{text}')],
    ['longhealth.user', LONGHEALTH_TEMPLATE],
  ]);
}
