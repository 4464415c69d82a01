import { defineProvider } from '../provider-descriptor.js';

/** The built-in baselines: answers made in this process from the prompt alone. */
export const baselineProvider = defineProvider({
  name: 'baseline',
  docs: { title: 'Baseline', page: 'baselines.md' },
  spec: {
    form: 'baseline:extractive',
    misfit: (rest) => ({
      message: `Unknown baseline "${rest}".`,
      hint: 'Built-in baselines: baseline:extractive.',
    }),
    parse: (rest) =>
      rest === '' || rest === 'extractive' ? { provider: 'baseline', model: 'extractive' } : undefined,
  },
  transport: 'in-process',
  signIn: 'none (in process)',
  keyRequired: false,
  capabilities: {
    tokenCounting: 'none',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'yes (in process)',
  },
  // Baselines generate nothing: they take every setting and ignore it.
  generationSettings: 'ignored',
  async createChat() {
    const { ExtractiveBaselineChatModel } = await import('./extractive-baseline-chat-model.js');
    return new ExtractiveBaselineChatModel();
  },
});
