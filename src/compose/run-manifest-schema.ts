import { z } from 'zod';

const sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: 'SHA-256, hex.' });

/** An input file a run read, hashed when it started. */
export const runInputSchema = z.strictObject({
  role: z.string().meta({ description: 'What the file is to the run (`dataset`, `clue mednli`, `umls` …).' }),
  path: z.string().meta({ description: 'Where it was read, as given.' }),
  sha256: sha256Schema,
  bytes: z.number().int().nonnegative(),
  release: z.record(z.string(), sha256Schema).optional().meta({
    description:
      'A dataset file: the SHA-256 of each release file its build could read (`release/…`, `sources/…`, `counting-draws`, `prompts`), as its header records them.',
  }),
});
export type RunInput = z.infer<typeof runInputSchema>;

/**
 * What `runSuite` records of a run when it starts (the `run_recipes` table): everything its
 * manifest holds beyond the run's own row, and what `medbench rerun` rebuilds it from.
 */
export const runRecipeSchema = z.strictObject({
  medbench: z
    .strictObject({
      version: z.string(),
      commit: z
        .string()
        .nullable()
        .meta({ description: 'The git commit of the checkout; null for an installed package.' }),
      code: sha256Schema.meta({ description: "SHA-256 of medbench's modules as they ran." }),
    })
    .meta({ description: 'The medbench that made the run.' }),
  inputs: z.array(runInputSchema).meta({ description: 'Dataset and release files the run read, hashed.' }),
  prompts: z
    .strictObject({
      count: z.number().int().nonnegative(),
      sha256: sha256Schema.meta({
        description:
          "SHA-256 of every sample's id and prompt hash, one `id<TAB>hash` line each, in the run's order.",
      }),
      samples: z
        .array(z.tuple([z.string(), sha256Schema]))
        .optional()
        .meta({
          description:
            "Each sample's id and the SHA-256 of its conversation as sent (canonical JSON of its role and content pairs); in the exported file, not in report --json.",
        }),
      templates: z
        .record(z.string(), sha256Schema)
        .meta({ description: "SHA-256 of each of the suite's prompt templates, by name." }),
    })
    .meta({ description: 'The prompts of every sample of the run (every shard, every epoch).' }),
  tokenizer: z
    .strictObject({
      name: z.string(),
      exact: z.boolean(),
      package: z.string().nullable(),
      version: z.string().nullable(),
    })
    .nullable()
    .meta({ description: 'The tokenizer that counted the prompts (too_long, budgets); null: none.' }),
  chatTemplate: z
    .strictObject({
      instruct: z
        .boolean()
        .meta({ description: 'Chat messages (true) or plain text to /completions (false).' }),
      systemRole: z
        .boolean()
        .meta({ description: 'The system prompt as a system message (else joined to the first user turn).' }),
      applied: z.enum(['provider', 'medbench']).meta({
        description:
          "provider: the server applies the model's chat template to the messages; medbench: plain text is sent.",
      }),
    })
    .nullable()
    .meta({
      description: 'How the conversation reaches the model; null: no chat model (a baseline, a retriever).',
    }),
  generation: z
    .strictObject({
      model: z
        .record(z.string(), z.unknown())
        .meta({ description: "The model's generation settings, as sent." }),
      samples: z.array(z.record(z.string(), z.unknown())).meta({
        description: "Each distinct set of a protocol's own limits samples add (max output tokens, stop).",
      }),
    })
    .nullable(),
  provider: z
    .strictObject({
      name: z.string(),
      modelId: z.string(),
      endpoints: z.array(z.string()).meta({ description: 'Endpoint identities (base URLs, never a key).' }),
    })
    .nullable(),
  seeds: z.strictObject({
    generation: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The seed sent with each request; null: none.' }),
    data: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The suite's own seed (--seed: CLUE LongHealth's shuffle)." }),
    epochs: z.array(z.number().int()).meta({ description: "`--epochs`: each later epoch's request seed." }),
  }),
  restrictedData: z.strictObject({
    level: z.enum(['open', 'restricted']),
    what: z.string().nullable(),
    why: z.string().nullable(),
    redacted: z.boolean().meta({ description: '--redact: hashes and lengths stored instead of the text.' }),
    marked: z.boolean().optional().meta({
      description:
        "--restricted: the user marked all of the run's data restricted (absent in older manifests: unknown).",
    }),
  }),
  rerun: z
    .strictObject({
      suite: z
        .string()
        .nullable()
        .meta({ description: 'The suite of `run <suite>`; null: `run --dataset`.' }),
      options: z
        .record(z.string(), z.unknown())
        .meta({ description: "The run's options (no home, no secrets)." }),
    })
    .meta({ description: 'What `medbench rerun` runs again.' }),
});
/** What a run was made from, recorded as it starts (`runRecipeSchema`). */
export type RunRecipe = z.infer<typeof runRecipeSchema>;

/** A run's manifest (`medbench export manifest`, `report --json` runs[].manifest). */
export const runManifestSchema = z
  .strictObject({
    medbenchManifest: z.literal(1),
    run: z.strictObject({
      id: z.string(),
      suite: z.string(),
      label: z.string(),
      createdAt: z.string(),
      source: z.enum(['medbench', 'imported']),
      tasks: z.array(z.string()).meta({ description: 'The tasks of its stored results.' }),
      protocol: z
        .unknown()
        .meta({ description: "The suite's protocol the run follows (CLUE's), else null." }),
      dataset: z.strictObject({ id: z.string(), path: z.string().nullable() }),
    }),
    returnedModels: z.array(z.string()).meta({
      description:
        'The model ids or versions the provider said answered (OpenAI and Anthropic `model`, Gemini `modelVersion`), distinct.',
    }),
    recipe: runRecipeSchema.nullable().meta({
      description: 'What the run was made from; null for a run imported or made before medbench recorded it.',
    }),
  })
  .meta({ title: 'medbench run manifest' });
/** A run's manifest (`runManifestSchema`): what `export manifest` writes and `rerun` reads. */
export type RunManifest = z.infer<typeof runManifestSchema>;
