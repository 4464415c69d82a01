import type { ChatMessage, PromptCacheHint } from '../../core/chat-model.js';
import { PromptCachePieces, type TextPiece } from '../prompt-cache-pieces.js';

/** A text block of the Messages API, marked where the prompt cache is to keep everything up to its end. */
interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: { type: 'ephemeral' };
}

const textBlocks = (pieces: readonly TextPiece[]): TextBlock[] =>
  pieces.map((piece) => ({
    type: 'text',
    text: piece.text,
    ...(piece.cached ? { cache_control: { type: 'ephemeral' } } : {}),
  }));

/** How the system messages are joined into one system prompt. */
const SYSTEM_JOIN = '\n\n';

/**
 * Anthropic's shape of a conversation: system messages joined in `system`, the rest as messages.
 * With a `PromptCacheHint`, a message (or the system prompt) with a breakpoint is sent as text
 * blocks cut there, `cache_control: { type: 'ephemeral' }` on each block that ends at one (at most
 * four): the blocks join to the same text. Everything else is sent as plain strings, as without.
 */
export function anthropicConversation(
  messages: readonly ChatMessage[],
  hint?: PromptCacheHint,
): { system?: string | TextBlock[]; messages: Array<{ role: string; content: string | TextBlock[] }> } {
  const pieces = new PromptCachePieces(hint);
  const systems = messages.flatMap((message, index) =>
    message.role === 'system' ? [{ message, index }] : [],
  );
  const system = systems.map(({ message }) => message.content).join(SYSTEM_JOIN);
  let systemField: string | TextBlock[] | undefined = system || undefined;
  if (system && systems.some(({ index }) => pieces.cuts(index))) {
    const joined = systems.flatMap(({ message, index }, place) => {
      const own = pieces.pieces(index, message.content);
      if (place === 0) return own;
      const [first, ...rest] = own;
      return first
        ? [{ ...first, text: SYSTEM_JOIN + first.text }, ...rest]
        : [{ text: SYSTEM_JOIN, cached: false }];
    });
    systemField = textBlocks(joined.filter((piece) => piece.text !== ''));
  }
  return {
    ...(systemField !== undefined ? { system: systemField } : {}),
    messages: messages.flatMap((message, index) =>
      message.role === 'system'
        ? []
        : [
            {
              role: message.role,
              content: pieces.cuts(index)
                ? textBlocks(pieces.pieces(index, message.content))
                : message.content,
            },
          ],
    ),
  };
}
