import type { ChatFactoryOptions } from './provider-descriptor.js';

/** The options every HTTP adapter shares: key, fixed and secret headers, query. */
export function httpOptions(options: ChatFactoryOptions<unknown>) {
  return {
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.apiKeyEnv ? { apiKeyEnv: options.apiKeyEnv } : {}),
    ...sdkParameters(options),
  };
}

/** Fixed and secret headers and the query, for the adapters that hand them to an SDK. */
export function sdkParameters(options: ChatFactoryOptions<unknown>) {
  return {
    headers: options.headers,
    secretHeaders: options.secretHeaders,
    ...(options.query ? { query: options.query } : {}),
  };
}
