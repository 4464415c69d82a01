import type { ChatModel, ChatRequest } from '../core/chat-model.js';
import type { ModelBinding } from './model-binding.js';

/**
 * The binding with each endpoint's answers watched: `onVersion` hears the model id or version the
 * provider says answered (`ChatResponse.modelVersion`), each distinct one once. Every other member
 * of an endpoint is its own (bound to it), so the runner sees the same model.
 */
export function watchModelVersions(
  binding: ModelBinding,
  onVersion: (version: string) => void,
): ModelBinding {
  const seen = new Set<string>();
  const watched = (model: ChatModel): ChatModel =>
    new Proxy(model, {
      get(target, property) {
        if (property === 'generate')
          return async (request: ChatRequest) => {
            const response = await target.generate(request);
            const version = response.modelVersion;
            if (version !== undefined && !seen.has(version)) {
              seen.add(version);
              onVersion(version);
            }
            return response;
          };
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return {
    ...binding,
    endpoints: binding.endpoints.map((endpoint) => ({ ...endpoint, model: watched(endpoint.model) })),
  };
}
