import { readFileSync } from 'node:fs';
import { fileError, MedbenchError } from '../core/errors.js';
import { datasetPlan } from './dataset-plan.js';
import { epochPlan } from './epoch-plan.js';
import { type RunManifest, type RunRecipe, runManifestSchema } from './run-manifest-schema.js';
import type { RunHooks } from './run-model.js';
import { hashedInputs, promptDigests } from './run-recipe.js';
import { type RunOutcome, type RunPlan, runSuite, type SuiteRunRequest } from './run-suite.js';
import type { SuitePlugin } from './suite-plugin.js';
import { SUITE_PLUGINS, SUITES } from './suites.js';

/** `medbench rerun <manifest>`: the manifest, and what the user gives in place of what it recorded. */
export interface RerunRequest {
  /** The manifest file (`medbench export manifest`). */
  manifest: string;
  home?: string;
  /** Another model spec (the recorded one by default): another run of the same prompts. */
  model?: string;
  config?: string;
  label?: string;
  /** Where the suite's data are on this machine (`run <suite> --data`). */
  data?: string;
  /** Where the dataset file is on this machine (`run --dataset`). */
  dataset?: string;
}

/** A manifest file, read and checked. */
export function readManifest(path: string): RunManifest {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw fileError(error, { path, action: 'read' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path} is not JSON: ${(error as Error).message}.`,
      hint: 'Give a manifest written by `medbench export manifest <run>`.',
    });
  }
  const parsed = runManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new MedbenchError({
      code: 'DATA_INVALID',
      message: `${path} is not a medbench run manifest: at ${issue.path.join('.') || '(root)'}, ${issue.message}.`,
      hint: 'Give a manifest written by `medbench export manifest <run>`.',
    });
  }
  return parsed.data;
}

/** Every input file the manifest hashed has the same hash where the rebuilt run reads it. */
async function checkInputs(path: string, recorded: RunRecipe['inputs'], plan: RunPlan): Promise<void> {
  const rebuilt = new Map((await hashedInputs(plan)).map((input) => [input.role, input]));
  for (const input of recorded) {
    const found = rebuilt.get(input.role);
    if (!found)
      throw new MedbenchError({
        code: 'DATA_NOT_FOUND',
        message: `The run in ${path} read ${input.role} (${input.path}); the rerun reads no such file.`,
        hint: 'Give the data the run read (--data <folder> or --dataset <file>).',
      });
    if (found.sha256 !== input.sha256)
      throw new MedbenchError({
        code: 'DATA_INVALID',
        message: `${found.path} (${input.role}) differs from the file the run read: its SHA-256 is ${found.sha256}, the manifest's ${input.sha256} (${input.path}, ${input.bytes} bytes; this one ${found.bytes}).`,
        hint: 'Give the same file the run read (the release or dataset at the version the manifest names). Nothing was sent.',
      });
  }
}

/** The rebuilt prompts are those the manifest hashed, byte for byte, in the same order. */
function checkPrompts(path: string, recorded: RunRecipe['prompts'], plan: RunPlan): void {
  const rebuilt = promptDigests(plan.samples);
  if (rebuilt.sha256 === recorded.sha256) return;
  const known = new Map(recorded.samples ?? []);
  const differing = rebuilt.samples.find(([id, digest]) => known.size > 0 && known.get(id) !== digest);
  const first = differing
    ? ` The first that differs: sample ${differing[0]}${known.has(differing[0]) ? '' : ' (not in the manifest)'}.`
    : '';
  throw new MedbenchError({
    code: 'DATA_INVALID',
    message: `The rebuilt prompts are not those of the run in ${path}: ${rebuilt.count} prompts hashing to ${rebuilt.sha256}, the manifest's ${recorded.count} to ${recorded.sha256}.${first}`,
    hint: 'Rerun with the medbench version, options and data the manifest names. Nothing was sent.',
  });
}

/** The plan the manifest's options make: its suite's run, or a run of a dataset file. */
async function plannedAgain(
  suite: string | null,
  request: SuiteRunRequest,
  hooks: RunHooks,
  plugins: readonly SuitePlugin[],
): Promise<RunPlan> {
  if (suite === null) return datasetPlan(request as SuiteRunRequest & { dataset: string }, SUITES);
  const definition = plugins.find((plugin) => plugin.suite.name === suite)?.run;
  if (!definition)
    throw new MedbenchError({
      code: 'USAGE',
      message: `The manifest's suite "${suite}" has no run in this medbench.`,
    });
  return definition.plan(request, hooks);
}

/**
 * Runs a manifest's run again: its recorded options (the model, data paths and label the caller
 * gives instead), every input file checked against the manifest's hash, and every prompt rebuilt
 * and checked against its hash before anything is sent; then `runSuite`, as any run (its cache,
 * its resume).
 */
export async function rerunManifest(
  request: RerunRequest,
  hooks: RunHooks = {},
  plugins: readonly SuitePlugin[] = SUITE_PLUGINS,
): Promise<RunOutcome> {
  const manifest = readManifest(request.manifest);
  const recipe = manifest.recipe;
  if (!recipe)
    throw new MedbenchError({
      code: 'USAGE',
      message: `The run in ${request.manifest} (${manifest.run.label}) has no recipe: it was imported, or made before medbench recorded one, so it cannot be rebuilt.`,
    });
  const { manifest: _file, ...given } = request;
  const options = {
    ...recipe.rerun.options,
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
  } as SuiteRunRequest;
  const plan = await plannedAgain(recipe.rerun.suite, options, hooks, plugins);
  try {
    await checkInputs(request.manifest, recipe.inputs, plan);
    // As runSuite makes it: with --epochs, each sample K times.
    checkPrompts(request.manifest, recipe.prompts, epochPlan(plan, options));
  } catch (error) {
    await plan.close?.();
    throw error;
  }
  return runSuite(plan, options, hooks);
}
