import type { CommandOutput } from '../core/command-output.js';
import type { Suite } from '../core/suite.js';
import type { SuiteLogFormat } from './log-formats.js';
import { type NumberRule, parseNumber } from './parse-options.js';
import type { RunHooks } from './run-model.js';
import type { RunPlan, SuiteRunRequest } from './run-suite.js';

/** One option of a suite's command, as `commander` is told it (the CLI adds it; the suite parses nothing itself). */
export interface CommandOption {
  /** `--data <folder>`, `--force`, `--no-cache`. */
  flags: string;
  description: string;
  default?: string | boolean | number;
  choices?: readonly string[];
  required?: boolean;
  /** Parses and checks a value; throws a USAGE `MedbenchError` naming the flag (shown as commander's usage error). */
  parse?: (value: string, previous: unknown) => unknown;
}

/** What a suite's command gets besides its options: where output goes, and a terminal session for runs. */
export interface SuiteCommandContext {
  output: CommandOutput;
  /** Progress, notices and Ctrl-C handling on the terminal; `dispose` when the command ends. */
  session(): { hooks: RunHooks; dispose(): void };
}

/** What one invocation of a suite's command carries. */
export interface SuiteCommandCall {
  /** Positional arguments, in the order of `SuiteCommand.arguments`. */
  arguments: readonly string[];
  /** Options by commander's camel-case names, with the global `home` when it was given. */
  options: Record<string, unknown> & { home?: string };
}

/** The generic verbs a suite's command hangs under (`medbench build <suite>`); none: a top-level command. */
export const SUITE_COMMAND_VERBS = ['build', 'import', 'export', 'generate', 'rescore'] as const;
export type SuiteCommandVerb = (typeof SUITE_COMMAND_VERBS)[number];

/** One command a suite brings (a build, an import, a rescore, a generate command, or a top-level one). */
export interface SuiteCommand {
  verb?: SuiteCommandVerb;
  /** Its name under the verb (or at the top level). */
  name: string;
  /** Positional arguments in commander's form (`<folder>`). */
  arguments?: readonly string[];
  description: string;
  options: readonly CommandOption[];
  /**
   * `run`'s option groups it shares: a chat model's options and the retry options (the generate
   * commands); `outputLimit` is the output limit the help names when neither flag nor config sets one.
   */
  modelOptions?: { outputLimit?: string };
  run(call: SuiteCommandCall, context: SuiteCommandContext): Promise<unknown>;
}

/**
 * `medbench run <suite> --data <folder>`: a suite whose items are built from the official files
 * for the model at hand. Its plan goes through `runSuite`, as every run does.
 */
export interface SuiteRunDefinition {
  /** What `--data` holds, for the usage error when it is missing. */
  data: string;
  /** What `--model` names for this suite when it is not a chat model (`run --help`). */
  model?: string;
  /** The suite's own options of `run` (besides the model, retry and run options every run takes). */
  options: readonly CommandOption[];
  /** Reads and checks every input and binds the model; nothing is sent or stored yet. */
  plan(request: SuiteRunRequest, hooks: RunHooks): Promise<RunPlan>;
}

/**
 * What a suite's part of `medbench demo` gets: the home its store and reports go in, where
 * output goes, and the terminal session its runs show on (progress, Ctrl-C).
 */
export interface SuiteDemoContext extends SuiteCommandContext {
  home: string;
}

/** A suite and what it brings besides its reports: its commands and its run. `SUITE_PLUGINS` lists them. */
export interface SuitePlugin {
  suite: Suite;
  commands: readonly SuiteCommand[];
  run?: SuiteRunDefinition;
  /** JSON Schemas of its commands' `--json` output, by file name under `schemas/` (CLUE's judge-validate). */
  jsonSchemas?: Readonly<Record<string, () => Record<string, unknown>>>;
  /** Formats of `medbench export logs --format` only its runs have (MedEureka's `mteb`). */
  logFormats?: readonly SuiteLogFormat[];
  /**
   * Its part of `medbench demo` (shipped sample data, no network), in the registry's order;
   * `interrupted`: stopped by Ctrl-C, the demo ends there.
   */
  demo?(context: SuiteDemoContext): Promise<{ interrupted: boolean }>;
}

/** An option value parsed as a number within `rule` (a whole number unless `integer: false`). */
export function numberOption(flag: string, rule: NumberRule = {}) {
  return (value: string) => parseNumber(flag, value, rule);
}

/** A repeatable option: every value, in order. */
export function repeatedOption(value: string, previous: unknown): string[] {
  return [...((previous as string[] | undefined) ?? []), value];
}
