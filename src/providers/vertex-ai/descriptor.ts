import { z } from 'zod';
import {
  GEMINI_SETTINGS,
  geminiEmbeddingEndpoint,
  geminiEmbeddingModel,
  geminiModel,
} from '../gemini/descriptor.js';
import { loadGeminiSdk } from '../gemini/gemini-client.js';
import { GEMINI_PRICING } from '../gemini/gemini-pricing.js';
import { APPROVED_REMOTE } from '../openai-compatible/descriptor.js';
import { defineEmbedding, defineProvider } from '../provider-descriptor.js';

/** Gemini on Vertex AI: a Google Cloud project and location, Application Default Credentials. */
export const vertexAIProvider = defineProvider({
  name: 'vertex-ai',
  docs: { title: 'Google Vertex AI', page: 'gemini.md', note: 'Gemini' },
  spec: {
    form: 'vertex-ai:<model>@<project>/<location>',
    note: 'Application Default Credentials',
    parse(rest) {
      const match = /^(.+)@([^/@]+)\/([a-z0-9-]+)$/.exec(rest);
      return match
        ? {
            provider: 'vertex-ai',
            model: match[1]!,
            endpoints: [{ project: match[2]!, location: match[3]! }],
          }
        : undefined;
    },
  },
  transport: 'sdk',
  signIn: 'Google ADC (no key)',
  keyRequired: false,
  loadPart: loadGeminiSdk,
  settings: {
    /** The Google Cloud project. */
    project: z.string().min(1).optional(),
    /** The Google Cloud location (e.g. europe-west4). */
    location: z
      .string()
      .regex(/^[a-z]+(-[a-z]+\d*)*$/, 'must be a Google Cloud location such as europe-west4')
      .optional(),
  },
  checkEndpoint: (endpoint) =>
    (['project', 'location'] as const)
      .filter((field) => !endpoint[field])
      .map((field) => ({ path: [field], message: `vertex-ai needs the ${field}` })),
  capabilities: {
    tokenCounting: 'route',
    // models.get on Vertex AI gives a publisher model, which has no input token limit.
    maxContext: false,
    prefill: 'none',
    logprobs: false,
    restrictedData: APPROVED_REMOTE,
  },
  pricing: GEMINI_PRICING,
  generationSettings: GEMINI_SETTINGS,
  createChat: (options) => {
    const { project, location } = options.settings;
    return geminiModel(options, project && location ? { project, location } : undefined);
  },
  embedding: defineEmbedding({
    name: 'vertex-ai',
    specForm: 'vertex-ai:<model>@<project>/<location>',
    parse(rest) {
      const match = /^(.+)@([^/@]+)\/([a-z0-9-]+)$/.exec(rest);
      return match
        ? { provider: 'vertex-ai', model: match[1]!, project: match[2]!, location: match[3]! }
        : undefined;
    },
    settings: {
      /** The Google Cloud project and location. */
      project: z.string().min(1).optional(),
      location: z.string().min(1).optional(),
    },
    check: (entry) =>
      entry.project && entry.location ? undefined : 'vertex-ai needs "project" and "location"',
    endpoints: geminiEmbeddingEndpoint,
    create: (options) => geminiEmbeddingModel(options),
  }),
});
