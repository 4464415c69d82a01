import { createHash } from 'node:crypto';
import type { ChatMessage } from '../core/chat-model.js';
import { sha256 } from '../store/prepared-prompt.js';
import { canonicalJson } from './canonical-json.js';

/** Digest of a conversation: roles and texts, hashed as they are (no JSON copy of long prompts). */
export function messagesDigest(messages: readonly ChatMessage[]): string {
  const hash = createHash('sha256');
  for (const message of messages) {
    hash.update(`\u0000${message.role}\u0000${message.content.length}\u0000`);
    hash.update(message.content);
  }
  return hash.digest('hex');
}

/**
 * Cache key of one request: everything that can change the answer — the adapter (provider and
 * API), the endpoint that answers (its identity, never a key), the model, every generation
 * parameter and the messages. The same model name on another server is another key.
 */
export function responseCacheKey(options: {
  provider: string;
  endpoint: string;
  modelId: string;
  parameters: unknown;
  messagesDigest: string;
}): string {
  return sha256(
    canonicalJson({
      version: 3,
      provider: options.provider,
      endpoint: options.endpoint,
      modelId: options.modelId,
      parameters: options.parameters,
      messages: options.messagesDigest,
    }),
  );
}
