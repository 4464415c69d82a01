import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'medbench.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function temporaryHome(): string {
  return mkdtempSync(join(tmpdir(), 'medbench-e2e-'));
}

/** Starts the built CLI (`bin/medbench.js`) as a child process. */
export function startCli(
  args: readonly string[],
  environment: NodeJS.ProcessEnv = {},
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolvePromise) => {
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
  return { child, done };
}

export function runCli(args: readonly string[], environment: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return startCli(args, environment).done;
}

/** `run --dataset <dataset>` into `home` of model `m` on the OpenAI-compatible server at `url`, window 128000. */
export function datasetRunArgs(home: string, dataset: string, url: string): string[] {
  const model = `openai-compatible:m@${url}/v1`;
  return ['--home', home, 'run', '--dataset', dataset, '--model', model, '--context-window', '128000'];
}

/** The sample release's NIAH (or `tasks`) in English at `levels`, written to `out`; `extra` options of `build`. */
export async function buildSampleNiah(
  out: string,
  levels = '1000',
  tasks = 'niah',
  extra: readonly string[] = [],
): Promise<void> {
  const built = await runCli([
    ...['build', 'medodyssey', '--data', join(ROOT, 'samples', 'medodyssey'), '--out', out],
    ...['--levels', levels, '--task', tasks, '--lang', 'en', ...extra],
  ]);
  if (built.code !== 0) throw new Error(`building ${out} failed: ${built.stderr}`);
}

/** `medbench view` on a home, started as a user would; resolves with the URL it prints. */
export async function startViewer(
  home: string,
  options: readonly string[] = [],
): Promise<{ viewer: ReturnType<typeof startCli>; url: string }> {
  const viewer = startCli(['--home', home, 'view', ...options]);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    viewer.child.stdout!.on('data', (chunk) => {
      seen += chunk;
      const match = /medbench viewer: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    viewer.child.on('close', () => reject(new Error(`the viewer exited: ${seen}`)));
  });
  return { viewer, url };
}

/** The demo's runs and the two published runs of the test release, in a home: what the viewer tests show. */
export async function demoWithPublished(home: string): Promise<void> {
  const demo = await runCli(['--home', home, 'demo']);
  if (demo.code !== 0) throw new Error(`demo failed: ${demo.stderr}`);
  const published = join(ROOT, 'test', 'e2e', 'fixtures', 'published-release');
  const imported = await runCli(['--home', home, 'import', 'medodyssey-outputs', published]);
  if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
}

/**
 * `report --suite <suite> --json` of a home, parsed, without the keys `left` names (moments, ids
 * that differ) and without each run's `manifest`: how a run was made (its paths and options, the
 * model versions its sent answers named) differs between homes that hold the same results.
 */
export async function reportJson(home: string, suite: string, left: readonly string[]): Promise<unknown> {
  const printed = await runCli(['--home', home, 'report', '--suite', suite, '--json']);
  if (printed.code !== 0) throw new Error(`report failed: ${printed.stderr}`);
  return JSON.parse(printed.stdout, (key, value) =>
    left.includes(key) || key === 'manifest' ? undefined : value,
  );
}
