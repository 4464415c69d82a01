#!/usr/bin/env node
// A user's install, checked on the Node and npm first on PATH (CI runs it on 22, 24 and 26):
//
//   node tools/check-packed-install.js medbench-<version>.tgz [--keep]
//
// Installs the tarball `npm pack` wrote into an empty folder, from the npm registry only, as a user
// would: none of npm's settings from a calling npm, no ONNXRUNTIME_NODE_INSTALL. Then checks that
// npm warned neither EBADENGINE nor of install scripts or unknown config; that no optional peer
// dependency was installed; that node_modules is at most 400 MB; that `npx medbench demo` works;
// that a feature whose part is missing (Gemini) says what to install; and that `npx medbench view`
// serves its page and the demo's runs over 127.0.0.1. Exit 0 when all hold, 1 with the reason.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const LIMIT_MB = 400;
const [tarballArgument, ...flags] = process.argv.slice(2);
if (!tarballArgument || !existsSync(tarballArgument)) {
  process.stderr.write('usage: node tools/check-packed-install.js <medbench-x.y.z.tgz> [--keep]\n');
  process.exit(2);
}
const tarball = resolve(tarballArgument);
const folder = mkdtempSync(join(tmpdir(), 'medbench-packed-'));
const home = join(folder, 'home');

// A user's environment: no npm_* settings a calling npm exports, no onnxruntime-node install flag.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(npm_|ONNXRUNTIME_NODE_INSTALL)/i.test(name)),
);

const timings = [];
/** Runs `command` in the folder, timed; its output kept. */
function run(step, command, args, extraEnv = {}) {
  const start = performance.now();
  const result = spawnSync(command, args, {
    cwd: folder,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 600_000,
  });
  timings.push(`${step} ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

function fail(message, output) {
  process.stderr.write(`packed install on Node ${process.version}: ${message}\n`);
  if (output) process.stderr.write(`${output}\n`);
  process.stderr.write(`(the install is in ${folder})\n`);
  process.exit(1);
}

function install() {
  writeFileSync(join(folder, 'package.json'), '{ "name": "medbench-packed-install", "private": true }\n');
  const installed = run('install', 'npm', ['install', '--no-audit', '--no-fund', tarball]);
  const output = `${installed.stdout}${installed.stderr}`;
  if (installed.status !== 0) fail('npm install of the tarball failed', output);
  const warnings = output.split('\n').filter((line) => /^npm warn/i.test(line));
  if (warnings.length > 0) process.stdout.write(`npm's warnings:\n${warnings.join('\n')}\n`);
  const refused = warnings.filter((line) => /EBADENGINE|install-scripts|Unknown \w+ config/.test(line));
  if (refused.length > 0)
    fail('npm warned of the engine, an install script or an unknown config', refused.join('\n'));
}

function checkNoOptionalPart() {
  const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/medbench/package.json'), 'utf8'));
  const optional = Object.keys(manifest.peerDependencies ?? {});
  if (optional.length === 0) fail('the packed package.json lists no optional peer dependency');
  const present = optional.filter((name) => existsSync(join(folder, 'node_modules', name)));
  if (present.length > 0) fail(`optional peer dependencies were installed: ${present.join(', ')}`);
}

function checkSize() {
  const du = spawnSync('du', ['-sk', join(folder, 'node_modules')], { encoding: 'utf8' });
  if (du.status !== 0) fail('du failed', du.stderr);
  const megabytes = Number(du.stdout.split(/\s/)[0]) / 1024;
  if (!(megabytes <= LIMIT_MB)) fail(`node_modules is ${megabytes.toFixed(0)} MB, over ${LIMIT_MB} MB`);
  return megabytes;
}

function checkDemo() {
  const demo = run('demo', 'npx', ['medbench', '--home', home, 'demo']);
  const output = `${demo.stdout}${demo.stderr}`;
  if (
    demo.status !== 0 ||
    !/^baseline:extractive/m.test(demo.stdout) ||
    !demo.stdout.includes('MedEureka — MRR@10')
  )
    fail(`npx medbench demo exited ${demo.status} without its tables`, output);
}

/** Gemini without @google/genai: the run stops with PART_MISSING and the install command (nothing is sent). */
function checkMissingPart() {
  const dataset = join(home, 'demo', 'medodyssey-sample.jsonl');
  const args = [
    'medbench',
    '--home',
    home,
    'run',
    '--dataset',
    dataset,
    '--model',
    'gemini:gemini-2.5-flash',
  ];
  const gemini = run('missing part', 'npx', [...args, '--limit', '1'], { GEMINI_API_KEY: 'unused' });
  if (gemini.status !== 1 || !/error \[PART_MISSING\].*@google\/genai/.test(gemini.stderr))
    fail(`a Gemini run without @google/genai exited ${gemini.status} without PART_MISSING`, gemini.stderr);
  if (!/hint: .*npm install @google\/genai@\d+\.\d+\.\d+/.test(gemini.stderr))
    fail('PART_MISSING did not say what to install', gemini.stderr);
}

/** `npx medbench view` in a process group of its own, its page and the demo's runs fetched, then stopped. */
async function checkView() {
  const start = performance.now();
  const viewer = spawn('npx', ['medbench', '--home', home, 'view'], {
    cwd: folder,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((done) => viewer.once('exit', done));
  try {
    const url = await new Promise((found, refused) => {
      const timer = setTimeout(() => refused(new Error('no URL within 60 s')), 60_000);
      const read = (chunk) => {
        output += chunk;
        const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
        if (match) {
          clearTimeout(timer);
          found(match[0]);
        }
      };
      viewer.stdout.on('data', read);
      viewer.stderr.on('data', read);
      exited.then(() => refused(new Error('the viewer exited')));
    });
    const page = await fetch(url);
    const body = await page.text();
    if (page.status !== 200 || !body.includes('<title>medbench viewer</title>'))
      fail(`the viewer's page answered ${page.status}`, body.slice(0, 500));
    const overview = await fetch(new URL('api/overview', url));
    const runs = await overview.text();
    if (overview.status !== 200 || !runs.includes('baseline:extractive'))
      fail(`the viewer's overview answered ${overview.status} without the demo's runs`, runs.slice(0, 500));
  } catch (error) {
    fail(`npx medbench view: ${error.message}`, output);
  } finally {
    if (viewer.exitCode === null) process.kill(-viewer.pid, 'SIGTERM');
    await exited;
  }
  timings.push(`view ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

install();
checkNoOptionalPart();
const megabytes = checkSize();
checkDemo();
checkMissingPart();
await checkView();
process.stdout.write(
  `packed install on Node ${process.version} (npm ${spawnSync('npm', ['--version'], { env, encoding: 'utf8' }).stdout.trim()}): ` +
    `node_modules ${megabytes.toFixed(0)} MB (limit ${LIMIT_MB} MB), no optional part installed, demo, ` +
    `missing-part error and viewer work; ${timings.join(', ')}\n`,
);
if (!flags.includes('--keep')) rmSync(folder, { recursive: true, force: true });
