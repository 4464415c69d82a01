import type { ModelConfig } from './config.js';

/** What a chat provider can do, as `medbench providers` and docs/providers/README.md state it. */
export interface DeclaredCapabilities {
  /** An embedding model of the same provider for MedEureka. */
  embeddings: boolean;
  /** Where a prompt's tokens are counted for too_long: the provider's own route, or locally. */
  tokenCounting: 'route' | 'route (vLLM)' | 'local tokenizer' | 'exact, in process' | 'none';
  /** The model's maximum context is read before the run. */
  maxContext: boolean;
  /** An answer prefill the model continues. */
  prefill: 'continue' | 'continue (vLLM)' | 'trimmed' | 'none';
  /** Token log-probabilities: medbench asks no provider for them (no metric uses them). */
  logprobs: false;
  /** Who may receive restricted (credentialed) data through it. */
  restrictedData: string;
}

const REMOTE = 'only when its endpoint is approved in the config (restrictedDataApproved)';

/** One line per chat provider. */
export const PROVIDER_CAPABILITIES: Readonly<Record<ModelConfig['provider'], DeclaredCapabilities>> = {
  'openai-compatible': {
    embeddings: true,
    tokenCounting: 'route (vLLM)',
    maxContext: true,
    prefill: 'continue (vLLM)',
    logprobs: false,
    restrictedData: `on this machine; elsewhere ${REMOTE}`,
  },
  openai: {
    embeddings: true,
    tokenCounting: 'local tokenizer',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'never (PhysioNet forbids it)',
  },
  'azure-openai': {
    embeddings: true,
    tokenCounting: 'local tokenizer',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: `with human review opted out, ${REMOTE}`,
  },
  anthropic: {
    embeddings: false,
    tokenCounting: 'route',
    maxContext: false,
    prefill: 'trimmed',
    logprobs: false,
    restrictedData: REMOTE,
  },
  bedrock: {
    embeddings: true,
    tokenCounting: 'route',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: REMOTE,
  },
  gemini: {
    embeddings: true,
    tokenCounting: 'route',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'never (use Vertex AI)',
  },
  'vertex-ai': {
    embeddings: true,
    tokenCounting: 'route',
    // models.get on Vertex AI gives a publisher model, which has no input token limit.
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: REMOTE,
  },
  ollama: {
    embeddings: true,
    tokenCounting: 'none',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: `on this machine; elsewhere ${REMOTE}`,
  },
  gguf: {
    embeddings: false,
    tokenCounting: 'exact, in process',
    maxContext: true,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'yes (in process)',
  },
  baseline: {
    embeddings: false,
    tokenCounting: 'none',
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: 'yes (in process)',
  },
};
