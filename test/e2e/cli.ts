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

/** Builds the English NIAH samples of the shipped sample release at the given levels into `out`. */
export async function buildSampleNiah(out: string, levels = '1000'): Promise<void> {
  const built = await runCli([
    'build',
    'medodyssey',
    '--data',
    join(ROOT, 'samples', 'medodyssey'),
    '--out',
    out,
    '--levels',
    levels,
    '--task',
    'niah',
    '--lang',
    'en',
  ]);
  if (built.code !== 0) throw new Error(`building ${out} failed: ${built.stderr}`);
}
