import type { ChatMessage } from '../../core/chat-model.js';
import { MedbenchError } from '../../core/errors.js';
import type { ClueProtocol } from './protocols.js';

/** What the model is, as the scripts distinguish it. */
export interface ClueModelKind {
  /** Chat (instruction-tuned); false for a base model prompted with plain text. */
  instruct: boolean;
  /** Its chat template has a system role. */
  systemRole: boolean;
}

/** repo-2025 prompts chat models only. */
function requireChat(protocol: ClueProtocol, model: ClueModelKind): void {
  if (model.instruct) return;
  throw new MedbenchError({
    code: 'USAGE',
    message: `Protocol ${protocol.name} runs chat models only (the 2025 scripts call vLLM's LLM.chat).`,
    hint: 'Use --protocol paper-2024 for a base model, or a chat model.',
  });
}

export interface ClueTurn {
  user: string;
  answer: string;
}

/**
 * A few-shot conversation as each protocol builds it. A non-empty prefill ends it as an
 * assistant message (the model continues it); for a base model it ends the plain text.
 *
 * paper-2024 (`utils.build_first_turn` / `build_few_shot_examples` / `build_model_input`):
 * - chat model with a system role: system, then each shot as user + assistant, then the query;
 * - chat model without one: the system prompt joins the first shot's user turn (a blank line
 *   between), or, with no shots, stands alone as the first user turn;
 * - base model: system prompt, each shot's user text and answer, the query, and the prefill,
 *   all joined by blank lines (the query followed by one too).
 * repo-2025 (`LLM.chat`): always a system message, chat models only.
 */
export function clueConversation(options: {
  protocol: ClueProtocol;
  model: ClueModelKind;
  system: string;
  shots: readonly ClueTurn[];
  user: string;
  prefill: string;
}): ChatMessage[] {
  const { model, system, shots, user, prefill } = options;
  const withPrefill = (messages: ChatMessage[]): ChatMessage[] =>
    prefill === '' ? messages : [...messages, { role: 'assistant', content: prefill }];
  const turns = (list: readonly ClueTurn[]): ChatMessage[] =>
    list.flatMap((shot) => [
      { role: 'user' as const, content: shot.user },
      { role: 'assistant' as const, content: shot.answer },
    ]);
  if (options.protocol.chat === 'system-role') {
    requireChat(options.protocol, model);
    return withPrefill([
      { role: 'system', content: system },
      ...turns(shots),
      { role: 'user', content: user },
    ]);
  }
  if (!model.instruct) {
    if (shots.length === 0) {
      throw new MedbenchError({
        code: 'USAGE',
        message: 'paper-2024 prompts a base model only with shots (its script fails without them).',
        hint: "Keep the protocol's shots, or use a chat model.",
      });
    }
    const text = [system, ...shots.flatMap((shot) => [shot.user, shot.answer])].join('\n\n');
    return [{ role: 'user', content: `${text}\n\n${user}\n\n${prefill}` }];
  }
  if (model.systemRole) {
    return withPrefill([
      { role: 'system', content: system },
      ...turns(shots),
      { role: 'user', content: user },
    ]);
  }
  const [first, ...rest] = shots;
  const opening: ChatMessage[] = first
    ? [
        { role: 'user', content: `${system}\n\n${first.user}` },
        { role: 'assistant', content: first.answer },
      ]
    : [{ role: 'user', content: system }];
  return withPrefill([...opening, ...turns(rest), { role: 'user', content: user }]);
}

/**
 * LongHealth's conversation (no shots, no prefill). paper-2024: a system message when the chat
 * model has the role, else system prompt and query in one user turn with nothing between;
 * base models: system prompt, two blank lines, query. repo-2025: always a system message.
 */
export function longHealthConversation(options: {
  protocol: ClueProtocol;
  model: ClueModelKind;
  system: string;
  user: string;
}): ChatMessage[] {
  const { protocol, model, system, user } = options;
  if (protocol.chat === 'system-role') requireChat(protocol, model);
  if (protocol.chat === 'system-role' || (model.instruct && model.systemRole)) {
    return [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
  }
  return [{ role: 'user', content: model.instruct ? `${system}${user}` : `${system}\n\n\n${user}` }];
}
