import { z } from 'zod';
import { httpOptions } from '../../../../src/providers/factory-options.js';
import { defineProvider } from '../../../../src/providers/provider-descriptor.js';

/**
 * The toy provider of docs/adding-a-provider.md, whole: in medbench this file would be
 * src/providers/abacus/descriptor.ts, and `abacusProvider` one line in `PROVIDERS`
 * (src/providers/registry.ts); test/toy-suite.test.ts registers it with `providersWith`.
 */
export const abacusProvider = defineProvider({
  name: 'abacus',
  docs: { title: 'Abacus', page: 'abacus.md', note: 'a toy answering service' },
  spec: {
    form: 'abacus:<model>@<base URL>',
    note: 'ABACUS_KEY',
    parse(rest) {
      const at = rest.search(/@https?:\/\//i);
      return at > 0
        ? {
            provider: 'abacus',
            model: rest.slice(0, at),
            endpoints: [{ baseURL: rest.slice(at + 1), apiKeyEnv: 'ABACUS_KEY' }],
          }
        : undefined;
    },
  },
  transport: 'http',
  signIn: 'key (ABACUS_KEY)',
  keyRequired: true,
  settings: {
    /** The ledger Abacus keeps the answers in (default: main). */
    ledger: z
      .string()
      .regex(/^[a-z]+$/, 'must be a ledger name in lower case')
      .optional(),
  },
  checkEndpoint: (endpoint) =>
    endpoint.ledger !== undefined && endpoint.ledger !== 'main' && !endpoint.apiKeyEnv
      ? [{ path: ['apiKeyEnv'], message: `abacus needs a key for the ledger "${endpoint.ledger}"` }]
      : [],
  capabilities: {
    tokenCounting: 'none',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'only when its endpoint is approved in the config (restrictedDataApproved)',
  },
  generationSettings: { seed: 'seed' },
  async createChat(options) {
    const { AbacusChatModel } = await import('./abacus-chat-model.js');
    return new AbacusChatModel({
      baseURL: options.baseURL,
      modelId: options.modelId,
      ...(options.settings.ledger ? { ledger: options.settings.ledger } : {}),
      ...httpOptions(options),
    });
  },
});
