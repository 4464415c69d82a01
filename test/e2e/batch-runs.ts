import type { ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { type Interception, startInterceptingProxy } from '../support/intercepting-proxy.js';
import type { BillingLedger } from '../support/platform/billing-ledger.js';
import { reportJson, runCli, startCli } from './cli.js';

/** Answers that vary by prompt: equal reports mean the same answers in the same places. */
export const variedAnswer = (prompt: string) =>
  JSON.stringify({ answer: prompt.length % 3 === 0 ? 'Odile Varga' : `x${prompt.length % 7}` });

/** A config file in `folder` whose model `gpt` is `entry` (a provider, model and endpoint on a local platform). */
export function modelConfig(folder: string, entry: Record<string, unknown>): string {
  const path = join(folder, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify({ models: { gpt: { contextWindow: 128000, ...entry } } }));
  return path;
}

/** `run` of `dataset` on the config's model `gpt` into `home`. */
export const runArgs = (dataset: string, home: string, config: string, extra: readonly string[] = []) => [
  ...['--home', home, 'run', '--dataset', dataset],
  ...['--model', 'gpt', '--config', config, ...extra],
];

export const runModel = (
  dataset: string,
  environment: NodeJS.ProcessEnv,
): ((home: string, config: string, extra?: readonly string[]) => ReturnType<typeof runCli>) => {
  return (home, config, extra = []) => runCli(runArgs(dataset, home, config, extra), environment);
};

/** The report's scores, without the moments it was made, where the answers came from and their cost. */
export async function reportedScores(home: string): Promise<unknown> {
  const printed = (await reportJson(home, 'medodyssey', ['generatedAt', 'createdAt', 'cost'])) as Record<
    string,
    unknown
  >;
  const { usage: _usage, ...rest } = printed;
  return rest;
}

/** What the report says the runs cost. */
export async function reportedCost(home: string): Promise<number> {
  const printed = (await reportJson(home, 'medodyssey', [])) as { runs: Array<{ usage: { cost: number } }> };
  return printed.runs.reduce((sum, run) => sum + run.usage.cost, 0);
}

/** What a platform billed, in dollars, for requests of one mode. */
export const billed = (ledger: BillingLedger, mode: 'sync' | 'batch') =>
  ledger.entries.filter((entry) => entry.mode === mode).reduce((sum, entry) => sum + entry.cost, 0);

/** A column of a home's store (a query's first column, every row). */
export function storedColumn(home: string, sql: string): unknown[] {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    return database.prepare(sql).pluck().all();
  } finally {
    database.close();
  }
}

/** The one submission's step in a home's store, and whether any of its results were kept. */
export function storedBatch(home: string): { state: string; settled: boolean } {
  const database = new Database(join(home, 'medbench.sqlite'), { readonly: true });
  try {
    const state = database.prepare('SELECT state FROM provider_batches').pluck().all() as string[];
    expect(state).toHaveLength(1);
    return { state: state[0]!, settled: settledRequests(home) > 0 };
  } finally {
    database.close();
  }
}

/** How many requests of a home's submissions have their outcome kept (0 without a store yet). */
export function settledRequests(home: string): number {
  const path = join(home, 'medbench.sqlite');
  if (!existsSync(path)) return 0;
  const database = new Database(path, { readonly: true });
  try {
    return database
      .prepare('SELECT COUNT(*) FROM provider_batch_requests WHERE outcome IS NOT NULL')
      .pluck()
      .get() as number;
  } finally {
    database.close();
  }
}

export interface Killer {
  url: string;
  close(): Promise<void>;
  /**
   * Runs the CLI with `args` and kills it once its create reached the platform (`hold-before`:
   * before it reached it).
   */
  killAfterCreate(
    args: string[],
    environment: NodeJS.ProcessEnv,
    hold?: 'hold-before' | 'hold-after',
  ): Promise<void>;
}

/**
 * A proxy in front of a platform that, once armed, lets a run's creating call reach the platform
 * and kills the run (SIGKILL) before the answer reaches it: the batch exists, medbench never
 * learnt its id. `answer`: routes the platform does not stand in for; `rewrite`: paths it serves
 * under another name.
 */
export async function createKiller(options: {
  target: () => string;
  isCreate: (method: string, path: string) => boolean;
  answer?: (method: string, path: string) => Interception | undefined;
  rewrite?: (path: string) => string;
}): Promise<Killer> {
  let armed = false;
  let hold: 'hold-before' | 'hold-after' = 'hold-after';
  let victim: ChildProcess | undefined;
  const proxy = await startInterceptingProxy(
    options.target,
    (method, path) =>
      options.answer?.(method, path) ?? (armed && options.isCreate(method, path) ? hold : 'forward'),
    () => victim?.kill('SIGKILL'),
    options.rewrite,
  );
  return {
    url: proxy.url,
    close: () => proxy.close(),
    async killAfterCreate(args, environment, at = 'hold-after') {
      armed = true;
      hold = at;
      const started = startCli(args, environment);
      victim = started.child;
      const killed = await started.done;
      armed = false;
      expect(killed.code, killed.stderr).toBeNull();
    },
  };
}

/**
 * A killer in front of the Gemini platform: it answers models.get (a synchronous run's probe),
 * which the platform does not stand in for, and serves a plain generateContent, which the SDK sends
 * to /v1 (its default), as /v1beta; medbench sends batch and cache calls to /v1beta itself.
 */
export function geminiKiller(
  target: () => string,
  isCreate: (method: string, path: string) => boolean,
): Promise<Killer> {
  return createKiller({
    target,
    isCreate,
    answer: (method, path) => {
      const model = /^GET \/v1(?:beta)?\/models\/([\w.-]+)(?:\?.*)?$/.exec(`${method} ${path}`);
      return model
        ? { status: 200, body: { name: `models/${model[1]}`, inputTokenLimit: 1048576 } }
        : undefined;
    },
    rewrite: (path) => path.replace(/^\/v1\/(models\/[\w.-]+:generateContent)/, '/v1beta/$1'),
  });
}
