import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { fileError } from '../core/errors.js';
import type { Sample } from '../core/sample.js';
import type { Suite } from '../core/suite.js';
import { redactCredentials } from '../providers/http-json.js';
import type { ModelBinding } from '../runner/model-binding.js';
import { conversationOf } from '../runner/prefix-order.js';
import { messagesDigest } from '../runner/response-cache-key.js';
import { type Store, sha256 } from '../store/store.js';
import { tokenizerVersion } from '../tokenizers/tokenizer-versions.js';
import { redactKnownSecrets } from './known-secrets.js';
import { medbenchIdentity } from './medbench-identity.js';
import type { DataRestriction } from './restricted-data.js';
import type { RunInput, RunRecipe } from './run-manifest-schema.js';

/** What a recipe reads of a run's plan (`RunPlan`). */
export interface RecipePlan {
  suite: Pick<Suite, 'name' | 'promptTemplates'>;
  samples: readonly Sample[];
  inputs?: ReadonlyArray<{ role: string; path: string; release?: Record<string, string> }>;
  work: { kind: 'model'; model: ModelBinding; restricted?: DataRestriction } | { kind: 'computed' };
}

/** What a recipe reads of a run's request (`RunRequest`): every option, as given. */
type RunRequest = { redact?: boolean; restricted?: boolean } & object;

/** Options of a run that say where or how it runs, not what it is: never in a manifest. */
const NOT_RECORDED = new Set(['home', 'dryRun', 'shard', 'report', 'batch', 'batchPollMs']);

/** SHA-256 and size of a file, read as a stream. */
export async function fileDigest(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of createReadStream(path)) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } catch (error) {
    throw fileError(error, { path, action: 'read' });
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** The plan's input files, each hashed. */
export async function hashedInputs(plan: RecipePlan): Promise<RunInput[]> {
  const inputs: RunInput[] = [];
  for (const input of plan.inputs ?? []) inputs.push({ ...input, ...(await fileDigest(input.path)) });
  return inputs;
}

/**
 * Each sample's id and the digest of its conversation as sent (`messagesDigest`, the response
 * cache key's), and one digest of them all in the run's order.
 */
export function promptDigests(
  samples: readonly Sample[],
): RunRecipe['prompts'] & { samples: Array<[string, string]> } {
  const pairs = samples.map((sample): [string, string] => [
    sample.id,
    messagesDigest(conversationOf(sample)),
  ]);
  return {
    count: pairs.length,
    sha256: sha256(pairs.map(([id, digest]) => `${id}\t${digest}\n`).join('')),
    samples: pairs,
    templates: {},
  };
}

/** The run's options as `rerun` takes them again: no home, no output switches, no secrets. */
export function recordedOptions(request: RunRequest): Record<string, unknown> {
  const kept = Object.entries(request).filter(
    ([key, value]) => !NOT_RECORDED.has(key) && value !== undefined && typeof value !== 'function',
  );
  // A key pasted into a spec or a URL's user info is taken out, as from any text medbench prints.
  const scrub = (text: string) => redactKnownSecrets(redactCredentials(text)).replace(/\/\/[^/@\s]+@/g, '//');
  return JSON.parse(
    JSON.stringify(Object.fromEntries(kept), (_, value) =>
      typeof value === 'string' ? scrub(value) : value,
    ),
  );
}

function modelParts(model: ModelBinding | undefined, samples: readonly Sample[]) {
  if (!model) return { tokenizer: null, chatTemplate: null, generation: null, provider: null };
  const perSample = new Map<string, Record<string, unknown>>();
  for (const sample of samples)
    if (sample.generation) perSample.set(JSON.stringify(sample.generation), { ...sample.generation });
  const tokenizer = model.tokenizer ?? model.fallbackTokenizer;
  return {
    tokenizer: tokenizer
      ? {
          name: tokenizer.name,
          exact: model.tokenizer ? tokenizer.exact : false,
          ...tokenizerVersion(tokenizer.name),
        }
      : null,
    chatTemplate: {
      instruct: model.instruct,
      systemRole: model.systemRole,
      applied: model.instruct ? ('provider' as const) : ('medbench' as const),
    },
    generation: { model: { ...model.parameters }, samples: [...perSample.values()] },
    provider: {
      name: model.provider,
      modelId: model.modelId,
      endpoints: [...new Set(model.endpoints.map((endpoint) => endpoint.model.endpoint))],
    },
  };
}

/** What `runSuite` records of a run as it starts: its manifest's recipe (`runRecipeSchema`). */
export async function runRecipe(plan: RecipePlan, request: RunRequest): Promise<RunRecipe> {
  const model = plan.work.kind === 'model' ? plan.work.model : undefined;
  const restricted = plan.work.kind === 'model' ? plan.work.restricted : undefined;
  const templates = Object.fromEntries(
    Object.entries(plan.suite.promptTemplates?.() ?? {}).map(([name, text]) => [name, sha256(text)]),
  );
  const epochSeeds = plan.samples.flatMap((sample) =>
    sample.epoch?.seed !== undefined ? [sample.epoch.seed] : [],
  );
  const dataSeed = (request as { seed?: unknown }).seed;
  return {
    medbench: medbenchIdentity(),
    inputs: await hashedInputs(plan),
    prompts: { ...promptDigests(plan.samples), templates },
    ...modelParts(model, plan.samples),
    seeds: {
      generation: model?.parameters.seed ?? null,
      data: typeof dataSeed === 'number' ? dataSeed : null,
      epochs: [...new Set(epochSeeds)],
    },
    restrictedData: {
      level: restricted ? 'restricted' : 'open',
      what: restricted?.what ?? null,
      why: restricted?.why ?? null,
      redacted: request.redact === true,
      marked: request.restricted === true,
    },
    rerun: {
      suite: typeof (request as { dataset?: unknown }).dataset === 'string' ? null : plan.suite.name,
      options: recordedOptions(request),
    },
  };
}

/**
 * Runs `work` and records the run's recipe once the run is stored (a refused run leaves the store
 * as it was); computed first, so a file that cannot be read stops the run before anything is sent.
 * Recorded once: a resumed run is the same run, made from the same.
 */
export async function withRecipe<Outcome>(
  store: Store,
  plan: RecipePlan & { run: { id: string } },
  request: RunRequest,
  work: () => Promise<Outcome>,
): Promise<Outcome> {
  const recipe = store.recipes.get(plan.run.id) === undefined ? await runRecipe(plan, request) : undefined;
  try {
    return await work();
  } finally {
    if (recipe && store.getRun(plan.run.id)) store.recipes.put(plan.run.id, recipe);
  }
}

/** The restricted-data level a run's recipe recorded (undefined: a run stored before recipes, or imported). */
export function recordedRestriction(
  store: Store,
  runId: string,
): { level?: unknown; marked?: unknown } | undefined {
  const recipe = store.recipes.get(runId) as
    | { restrictedData?: { level?: unknown; marked?: unknown } }
    | undefined;
  return recipe?.restrictedData;
}
