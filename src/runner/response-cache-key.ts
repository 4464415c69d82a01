import { createHash } from 'node:crypto';
import type { ChatMessage } from '../core/chat-model.js';
import { sha256 } from '../store/prepared-prompt.js';
import { canonicalJson } from './canonical-json.js';

/** Below this many characters a conversation is hashed as one string (Node's one-shot digest). */
const ONE_SHOT_CHARS = 65_536;

/** Digest of a conversation: roles and texts, hashed as they are (no JSON copy of long prompts). */
export function messagesDigest(messages: readonly ChatMessage[]): string {
  let length = 0;
  for (const message of messages) length += message.content.length;
  if (length < ONE_SHOT_CHARS) {
    // The same bytes as the pieces below (their joins are ASCII): the same digest, at a third of the cost.
    let text = '';
    for (const message of messages)
      text += `\u0000${message.role}\u0000${message.content.length}\u0000${message.content}`;
    return sha256(text);
  }
  const hash = createHash('sha256');
  for (const message of messages) {
    hash.update(`\u0000${message.role}\u0000${message.content.length}\u0000`);
    hash.update(message.content);
  }
  return hash.digest('hex');
}

/** Canonical JSON of generation parameters, by their plain JSON: a run sends the same few thousands of times. */
const canonicalParameters = new Map<string, string>();

function parametersJson(parameters: unknown): string {
  const plain = JSON.stringify(parameters);
  let canonical = canonicalParameters.get(plain);
  if (canonical === undefined) {
    canonical = canonicalJson(parameters);
    if (canonicalParameters.size >= 1000) canonicalParameters.clear();
    canonicalParameters.set(plain, canonical);
  }
  return canonical;
}

/**
 * Cache key of one request: everything that can change the answer — the adapter (provider and
 * API), the endpoint that answers (its identity, never a key), the model, every generation
 * parameter and the messages. The same model name on another server is another key. The text
 * hashed is `canonicalJson` of `{ version: 3, provider, endpoint, modelId, parameters, messages }`
 * (written out here in its key order; a test holds the two equal).
 */
export function responseCacheKey(options: {
  provider: string;
  endpoint: string;
  modelId: string;
  parameters: unknown;
  messagesDigest: string;
}): string {
  const parameters =
    options.parameters === undefined ? '' : `"parameters":${parametersJson(options.parameters)},`;
  return sha256(
    `{"endpoint":${JSON.stringify(options.endpoint)},"messages":${JSON.stringify(options.messagesDigest)},"modelId":${JSON.stringify(options.modelId)},${parameters}"provider":${JSON.stringify(options.provider)},"version":3}`,
  );
}
