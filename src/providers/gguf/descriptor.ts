import { MedbenchError } from '../../core/errors.js';
import { defineProvider } from '../provider-descriptor.js';

/** A GGUF file run by llama.cpp in a child process: no server, exact token counts. */
export const ggufProvider = defineProvider({
  name: 'gguf',
  docs: { title: 'GGUF', page: 'gguf.md', note: 'llama.cpp in a child process' },
  spec: {
    form: 'gguf:<path to a .gguf file>',
    note: 'llama.cpp in a child process, no server',
    parse: (rest) => (rest ? { provider: 'gguf', model: rest } : undefined),
  },
  transport: 'in-process',
  signIn: 'none (on this machine)',
  keyRequired: false,
  capabilities: {
    tokenCounting: 'exact, in process',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'yes (in process)',
  },
  generationSettings: { topP: 'topP', seed: 'seed', stop: 'customStopTriggers' },
  async createChat(options) {
    if (options.contextWindow === undefined)
      throw new MedbenchError({
        code: 'USAGE',
        message: `The GGUF model ${options.modelId} needs a context window: llama.cpp allocates it up front.`,
        hint: "Give --context-window <tokens> (at most the model's trained context).",
      });
    const { GgufChatModel } = await import('./gguf-chat-model.js');
    return GgufChatModel.open({ path: options.modelId, contextWindow: options.contextWindow });
  },
});
