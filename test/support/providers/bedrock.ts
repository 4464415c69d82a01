import { verifySigV4 } from '../sigv4.js';
import {
  fixture,
  json,
  messagesText,
  type ProviderWire,
  tokensOf,
  uncachedTokens,
  type WireResponse,
} from './wire.js';

type BedrockError = { type: string; body: { message?: string } };

/**
 * A Bedrock error as the runtime sends it: the type in x-amzn-ErrorType (with the service's
 * namespace after a colon), { "message" } as the body.
 */
function bedrockError(status: number, key: string, message?: string): WireResponse {
  const errors = fixture<Record<string, BedrockError>>('bedrock', 'errors');
  const error = errors[key] ?? errors[status >= 500 ? '500' : '400']!;
  return json(status, message ? { message } : error.body, {
    'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  });
}

/**
 * Bedrock's runtime: POST /model/{modelId}/converse and /model/{modelId}/count-tokens, signed with
 * SigV4 (checked when the server is given the secret key: InvalidSignatureException, 403).
 */
export const bedrockWire: ProviderWire = {
  route(method, pathname) {
    const match = /^\/model\/([^/]+)\/(converse|count-tokens)$/.exec(pathname);
    if (method !== 'POST' || !match) return undefined;
    return { kind: match[2] === 'converse' ? 'generate' : 'count', model: decodeURIComponent(match[1]!) };
  },
  unrouted: () => bedrockError(404, 'unknown-operation'),
  error: (status, message) => bedrockError(status, String(status), message),
  prompt(route, body) {
    // CountTokens wraps a Converse request: { input: { converse: { system, messages } } }.
    const converse =
      route.kind === 'count'
        ? ((body.input as { converse?: Record<string, unknown> } | undefined)?.converse ?? {})
        : body;
    return messagesText(converse.system, converse.messages);
  },
  answer(_route, answer) {
    const base = fixture('bedrock', 'converse');
    const output = tokensOf(answer).output;
    const reasoning = answer.reasoning
      ? [{ reasoningContent: { reasoningText: { text: answer.reasoning, signature: 'ErcBCkgIBxABGAIiQ' } } }]
      : [];
    return {
      ...base,
      output: { message: { role: 'assistant', content: [...reasoning, { text: answer.text }] } },
      // inputTokens: those neither read from nor written to the cache (Bedrock's prompt-caching guide).
      usage: {
        inputTokens: uncachedTokens(answer),
        outputTokens: output,
        totalTokens: answer.inputTokens + output,
        ...(answer.cachedTokens !== undefined ? { cacheReadInputTokens: answer.cachedTokens } : {}),
        ...(answer.cacheWriteTokens !== undefined ? { cacheWriteInputTokens: answer.cacheWriteTokens } : {}),
      },
    };
  },
  count: (_route, tokens) => ({ ...fixture('bedrock', 'count-tokens'), inputTokens: tokens }),
  refuse(route, request, state) {
    if (state.awsSecretAccessKey !== undefined) {
      try {
        verifySigV4(request, state.awsSecretAccessKey);
      } catch {
        return bedrockError(403, 'invalid-signature');
      }
    }
    // A model id Bedrock does not know (400), or a foundation model it cannot resolve in the region (404).
    if (!state.servedModels || state.servedModels.some((model) => model.id === route.model)) return undefined;
    return state.bedrockUnknownModel === 400 ? bedrockError(400, 'invalid-model') : bedrockError(404, '404');
  },
};
