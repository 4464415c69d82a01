import { chatCompletion, openAIPrompt } from './openai-compatible.js';
import { errorFixture, fixture, json, type ProviderWire } from './wire.js';

/**
 * Azure OpenAI's data plane: POST {endpoint}/openai/deployments/{deployment}/chat/completions
 * (and /completions) with `api-version` in the query; its errors are { error: { code, message } }.
 * Without api-version Azure answers 404 "Resource not found", as for any other path.
 */
export const azureOpenAIWire: ProviderWire = {
  route(method, pathname, query) {
    const match = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|completions)$/.exec(pathname);
    if (method !== 'POST' || !match || !query.has('api-version')) return undefined;
    return {
      kind: 'generate',
      model: decodeURIComponent(match[1]!),
      ...(match[2] === 'completions' ? { completion: true } : {}),
    };
  },
  unrouted: () => json(404, fixture('azure-openai', 'resource-not-found')),
  error(status, message) {
    const body = errorFixture<{ error: Record<string, unknown> }>('azure-openai', status, 400);
    if (message) body.error.message = message;
    return json(status, body);
  },
  prompt: (_route, body) => openAIPrompt(body),
  answer: (_route, answer) => chatCompletion(fixture('azure-openai', 'chat-completion'), answer),
};
